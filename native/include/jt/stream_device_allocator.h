// The stream caching allocator behind the device-neutral DeviceAllocator interface, for a device
// library (CUDA) to register: register_device_allocator(CUDA, make_stream_device_allocator(p)).
#pragma once
#include "jt/device_allocator.h"
#include "jt/device_provider.h"

namespace jt {

// Configured by JT_CUDA_ALLOC_CONF. Blocks go to provider->current_stream() of the allocating
// thread; copies run through provider->copy_bytes. provider must outlive the allocator, which
// the caller owns (a registered one lives as long as the process).
// Exported from libjtensor.so for libjtensor_cuda.so (JT_CXX_API, device_allocator.h).
JT_CXX_API DeviceAllocator* make_stream_device_allocator(DeviceProvider* provider);

}  // namespace jt
