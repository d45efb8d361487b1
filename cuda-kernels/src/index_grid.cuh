// What both indexing grids (index_along.cu, index_advanced.cu) share: the grid-stride walk, and the
// first-bad word, a device scratch word from the CUDA allocator that the kernels lower atomically,
// read back synchronously (the status must say whether an index was bad), with the bad index value.
#pragma once
#include <cstdint>

#include "allocator/device_allocator.h"
#include "index_items.cuh"
#include "runtime.cuh"

namespace jt {
namespace cuda {

// Thread's first item and the stride between its items in a grid-stride loop.
__device__ inline int64_t first_item() { return blockIdx.x * (int64_t)blockDim.x + threadIdx.x; }
__device__ inline int64_t item_step() { return (int64_t)gridDim.x * blockDim.x; }

class FirstBadWord {
 public:
  FirstBadWord() = default;
  FirstBadWord(const FirstBadWord&) = delete;
  FirstBadWord& operator=(const FirstBadWord&) = delete;
  ~FirstBadWord() {
    if (scratch_.ctx) alloc_->free(scratch_.ctx);  // stream-ordered: reused only by later work on this stream
  }

  int open() {
    alloc_ = device_allocator((int)DeviceType::CUDA);
    if (!alloc_ || !(scratch_ = alloc_->allocate(sizeof(uint64_t))).data) return JT_OUT_OF_MEMORY;
    return status_of(cudaMemsetAsync(scratch_.data, 0xFF, sizeof(uint64_t), current_stream()));  // kNoBad
  }
  uint64_t* word() const { return static_cast<uint64_t*>(scratch_.data); }
  int first_bad(uint64_t* pos) { return copy_sync(pos, word(), sizeof(uint64_t), cudaMemcpyDeviceToHost); }
  int read_index(const char* base, bool wide, int64_t off, int64_t* v) {
    int64_t wide_value = 0;
    int32_t narrow_value = 0;
    const int st = wide ? copy_sync(&wide_value, base + off, 8, cudaMemcpyDeviceToHost)
                        : copy_sync(&narrow_value, base + off, 4, cudaMemcpyDeviceToHost);
    *v = wide ? wide_value : narrow_value;
    return st;
  }

 private:
  DeviceAllocator* alloc_ = nullptr;
  Allocation scratch_;
};

}  // namespace cuda
}  // namespace jt
