// Device scratch for one call's kernels, from the CUDA caching allocator. It goes back when the
// Scratch goes out of scope, without waiting: the allocator's blocks are stream-ordered, so only
// work queued later on the current stream, after the call's kernels, can reuse it.
#pragma once
#include <cstddef>

#include "jt/device_allocator.h"

namespace jt {
namespace cuda {

class Scratch {
 public:
  Scratch() = default;
  explicit Scratch(size_t bytes) { allocate(bytes); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (block_.ctx) alloc_->free(block_.ctx);
  }

  // False when the allocator refused (the caller answers JT_OUT_OF_MEMORY).
  bool allocate(size_t bytes) {
    alloc_ = device_allocator((int)DeviceType::CUDA);
    if (alloc_) block_ = alloc_->allocate(bytes);
    return block_.data != nullptr;
  }
  template <typename T = void>
  T* data() const { return static_cast<T*>(block_.data); }
  explicit operator bool() const { return block_.data != nullptr; }

 private:
  DeviceAllocator* alloc_ = nullptr;
  Allocation block_;
};

}  // namespace cuda
}  // namespace jt
