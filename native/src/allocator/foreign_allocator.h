// Note [Wrapped storages]
// A storage over bytes that other code owns (a direct ByteBuffer, a memory-mapped file, another
// native library's buffer). Its "allocator" never frees those bytes: the owner's release runs in
// Java once the last reference goes. It only counts them, under their own statistics, so that
// memory_stats tells the caching allocator's bytes from borrowed ones.
#pragma once
#include <cstdint>

#include "jt/device_allocator.h"

namespace jt {

// The wrapped storages' byte counts: current, peak, allocated (ever wrapped), freed.
constexpr int kWrappedStatCount = 4;

DeviceAllocator& foreign_allocator();
// An Allocation over [data, data + nbytes) whose free() only updates the counts.
Allocation foreign_allocation(void* data, int64_t nbytes);
void foreign_stats(int64_t* out);  // kWrappedStatCount values
void foreign_reset_peak();
void foreign_reset_accumulated();

}  // namespace jt
