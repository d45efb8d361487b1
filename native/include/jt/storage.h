// Note [StorageImpl refcount]
// The count lives in the object, as in c10's intrusive_ptr: increments are relaxed (a holder
// already has a reference), the decrement is acq_rel so the thread that frees the block sees
// every write made through the other references.
#pragma once
#include <atomic>
#include <cstdint>

#include "jt/device_allocator.h"

namespace jt {

// Note [Storage data pointer at offset 0]
// The data pointer is the first field, mirrored from the block, so Java reads it with one load
// (jt_storage_data_offset) instead of a JNI call after every allocation and resize.
struct StorageImpl {
  void* data_ptr = nullptr;  // nullptr for an empty storage
  std::atomic<int64_t> refcount{1};
  void* ctx = nullptr;  // the allocator's record of the block; nullptr for an empty storage
  DeviceAllocator* allocator = nullptr;  // owns the block: frees and resizes go back to it
  int device = 0;                        // a jt_device_type code
  int64_t nbytes = 0;

  void* data() const { return data_ptr; }
  void set(Allocation a, int64_t n) {  // the data pointer and the block change together
    data_ptr = a.data;
    ctx = a.ctx;
    nbytes = n;
  }
  void retain() { refcount.fetch_add(1, std::memory_order_relaxed); }
  bool release() { return refcount.fetch_sub(1, std::memory_order_acq_rel) == 1; }
};

// nullptr when memory is out or the device has no allocator in this process.
StorageImpl* storage_new(int device, int64_t nbytes);
// A storage of the device from an allocator other than the device's own (pinned host memory is a
// CPU storage from the CUDA library's pinned allocator); nullptr when memory is out.
JT_CXX_API StorageImpl* storage_new_on(DeviceAllocator* allocator, int device, int64_t nbytes);
// A CPU storage over bytes owned elsewhere (Note [Wrapped storages]); never frees them.
StorageImpl* storage_wrap(void* data, int64_t nbytes);
void storage_release(StorageImpl* s);
bool storage_resize(StorageImpl* s, int64_t nbytes);

}  // namespace jt
