// The pinned host caching allocator behind the device-neutral DeviceAllocator interface, so a
// pinned block is a CPU storage like any other (storage_new_on): freed, resized and recorded on
// streams (jt_storage_record_stream) through the storage, as PyTorch's pin_memory() tensors are.
#pragma once
#include "jt/device_allocator.h"
#include "jt/device_provider.h"  // HostProvider, DeviceProvider

namespace jt {

// Both providers must outlive the allocator, which the caller owns (the CUDA library's lives as
// long as the process). Stats use the caching allocators' key names: allocation, allocated_bytes,
// segment and reserved_bytes under "all", num_device_alloc/num_device_free for the host calls.
// Exported from libjtensor.so for libjtensor_cuda.so (JT_CXX_API, device_allocator.h).
JT_CXX_API DeviceAllocator* make_pinned_device_allocator(HostProvider* host, DeviceProvider* device);

}  // namespace jt
