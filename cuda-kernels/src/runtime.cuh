// What every CUDA entry point shares: the calling thread's current stream, the launch grid, and
// turning a cudaError_t into a jt_status with the error kept for jtc_last_error.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "jt/jt.h"
#include "jtc/jtc.h"

namespace jt {
namespace cuda {

// The stream the calling thread's ops run on: the legacy default stream unless set.
cudaStream_t current_stream();
void set_current_stream(cudaStream_t s);

// Records err for jtc_last_error; JT_OK when err is cudaSuccess, else JTC_CUDA_ERROR.
int status_of(cudaError_t err);
const char* last_error();
// The status of the launch just made on this thread (cudaGetLastError).
inline int launch_status() { return status_of(cudaGetLastError()); }

// Copies between a host buffer and the device on the current stream and waits for it.
int copy_sync(void* dst, const void* src, int64_t nbytes, cudaMemcpyKind kind);

constexpr int kThreads = 256;
// Blocks for a grid-stride loop over `work` items: enough to fill the device, never more than needed.
unsigned blocks_for(int64_t work);
// Blocks for a thread per item, uncapped (kernels that do not loop over the grid).
inline unsigned blocks_of(int64_t items) { return (unsigned)((items + kThreads - 1) / kThreads); }

// Element pointers from byte addresses and byte offsets.
template <typename T>
__host__ __device__ inline T* at(char* base, int64_t off) { return reinterpret_cast<T*>(base + off); }
template <typename T>
__host__ __device__ inline const T* at(const char* base, int64_t off) { return reinterpret_cast<const T*>(base + off); }

}  // namespace cuda
}  // namespace jt
