// What both indexing grids (index_along.cu, index_advanced.cu) share: the grid-stride walk, and the
// first-bad word, a device scratch word from the CUDA allocator that the kernels lower atomically,
// read back synchronously (the status must say whether an index was bad), with the bad index value.
#pragma once
#include <cstdint>

#include "scratch.cuh"
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
  int open() {
    if (!scratch_.allocate(sizeof(uint64_t))) return JT_OUT_OF_MEMORY;
    return status_of(cudaMemsetAsync(scratch_.data(), 0xFF, sizeof(uint64_t), current_stream()));  // kNoBad
  }
  uint64_t* word() const { return scratch_.data<uint64_t>(); }
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
  Scratch scratch_;
};

}  // namespace cuda
}  // namespace jt
