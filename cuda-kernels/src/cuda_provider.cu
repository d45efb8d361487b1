#include "cuda_provider.cuh"

#include "runtime.cuh"

namespace jt {
namespace cuda {

// Every call makes the provider's device current first: the allocator may be called from any thread.
void* CudaProvider::raw_alloc(size_t nbytes) {
  void* p = nullptr;
  if (cudaSetDevice(device_) != cudaSuccess || cudaMalloc(&p, nbytes) != cudaSuccess) {
    (void)cudaGetLastError();  // out of memory is not sticky: clear it so the next call starts clean
    return nullptr;
  }
  return p;
}

void CudaProvider::raw_free(void* ptr) {
  cudaSetDevice(device_);
  cudaFree(ptr);
}

void* CudaProvider::record_event(StreamId stream) {
  cudaEvent_t e = nullptr;
  cudaSetDevice(device_);
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return nullptr;
  if (cudaEventRecord(e, reinterpret_cast<cudaStream_t>(stream)) != cudaSuccess) {
    cudaEventDestroy(e);
    return nullptr;
  }
  return e;
}

bool CudaProvider::event_done(void* event) {
  cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(event));
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  return true;  // done, or failed: a failed event never completes, and its block must not leak
}

void CudaProvider::release_event(void* event) { cudaEventDestroy(static_cast<cudaEvent_t>(event)); }

void CudaProvider::synchronize() {
  cudaSetDevice(device_);
  cudaDeviceSynchronize();
}

StreamId CudaProvider::current_stream() { return reinterpret_cast<StreamId>(cuda::current_stream()); }

void CudaProvider::copy_bytes(void* dst, const void* src, size_t nbytes) {
  cudaSetDevice(device_);
  cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, cuda::current_stream());
}

size_t CudaProvider::total_memory() {
  size_t free_bytes = 0, total = 0;
  cudaSetDevice(device_);
  return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? total : 0;
}

size_t CudaProvider::free_memory() {
  size_t free_bytes = 0, total = 0;
  cudaSetDevice(device_);
  return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? free_bytes : SIZE_MAX;
}

void* CudaHostProvider::host_alloc(size_t nbytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, nbytes, cudaHostAllocDefault) != cudaSuccess) {
    (void)cudaGetLastError();  // a refusal is not sticky
    return nullptr;
  }
  return p;
}

void CudaHostProvider::host_free(void* ptr) { cudaFreeHost(ptr); }

CudaProvider& device0_provider() {
  static CudaProvider* provider = new CudaProvider(0);  // never destroyed: see the declaration
  return *provider;
}

}  // namespace cuda
}  // namespace jt
