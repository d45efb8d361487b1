// Note [StorageImpl refcount]
// The count lives in the object, as in c10's intrusive_ptr: increments are relaxed (a holder
// already has a reference), the decrement is acq_rel so the thread that frees the block sees
// every write made through the other references.
#pragma once
#include <atomic>
#include <cstdint>

#include "allocator/caching_allocator.h"

namespace jt {

// Note [Storage data pointer at offset 0]
// The data pointer is the first field, mirrored from the block, so Java reads it with one load
// (jt_storage_data_offset) instead of a JNI call after every allocation and resize.
struct StorageImpl {
  void* data_ptr = nullptr;  // block->ptr, or nullptr for an empty storage
  std::atomic<int64_t> refcount{1};
  Block* block = nullptr;  // nullptr for an empty storage
  int64_t nbytes = 0;

  void* data() const { return data_ptr; }
  void set_block(Block* b, int64_t n) {  // keeps the mirrored data pointer in step
    block = b;
    data_ptr = b ? b->ptr : nullptr;
    nbytes = n;
  }
  void retain() { refcount.fetch_add(1, std::memory_order_relaxed); }
  bool release() { return refcount.fetch_sub(1, std::memory_order_acq_rel) == 1; }
};

StorageImpl* storage_new(int64_t nbytes);  // nullptr when memory is out
void storage_release(StorageImpl* s);
bool storage_resize(StorageImpl* s, int64_t nbytes);

}  // namespace jt
