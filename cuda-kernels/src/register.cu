// Registering device 0's stream-aware caching allocator (from native/src/allocator, over
// CudaProvider) as the storages' allocator for jt_device_type CUDA, and the pinned host
// allocator whose blocks are CPU storages (pin_memory).
#include <mutex>

#include "cuda_provider.cuh"
#include "jt/device_allocator.h"
#include "jt/no_throw.h"
#include "jt/pinned_device_allocator.h"
#include "jt/storage.h"
#include "jt/stream_device_allocator.h"
#include "runtime.cuh"

using namespace jt;

int jtc_init(void) {
  static std::once_flag once;
  static cudaError_t result = cudaSuccess;
  std::call_once(once, [] {
    int count = 0;
    result = cudaGetDeviceCount(&count);
    if (result == cudaSuccess && count == 0) result = cudaErrorNoDevice;
    if (result != cudaSuccess) return;
    // Lives as long as the process: storages may be freed by the JVM's cleaners at exit.
    register_device_allocator((int)DeviceType::CUDA, make_stream_device_allocator(&cuda::device0_provider()));
  });
  return (int)result;
}

namespace {
DeviceAllocator& pinned_allocator() {
  static cuda::CudaHostProvider host;
  static DeviceAllocator* pinned = make_pinned_device_allocator(&host, &cuda::device0_provider());  // kept, as above
  return *pinned;
}
}  // namespace

int64_t jtc_pinned_storage_new(int64_t nbytes) {
  if (nbytes < 0) return 0;
  return answer_or<int64_t>(0, [&] {  // 0 also when the heap refused the pool's bookkeeping
    return reinterpret_cast<int64_t>(storage_new_on(&pinned_allocator(), (int)DeviceType::CPU, nbytes));
  });
}

void jtc_pinned_stats(int64_t* out) { pinned_allocator().stats(out); }
void jtc_pinned_empty_cache(void) {
  dropping_exceptions([] { pinned_allocator().empty_cache(); });
}
