// Registering device 0's stream-aware caching allocator (from
// native/src/allocator, over CudaProvider) as the storages' allocator for jt_device_type CUDA.
#include <mutex>

#include "allocator/device_allocator.h"
#include "allocator/stream_device_allocator.h"
#include "cuda_provider.cuh"
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
    // Both live as long as the process: storages may be freed by the JVM's cleaners at exit.
    static cuda::CudaProvider provider(0);
    register_device_allocator((int)DeviceType::CUDA, make_stream_device_allocator(&provider));
  });
  return (int)result;
}
