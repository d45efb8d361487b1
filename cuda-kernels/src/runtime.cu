// The current stream, errors, and bytes between host and device.
#include <cstring>
#include <string>

#include "jt/dtype.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {
thread_local cudaStream_t tls_stream = nullptr;
thread_local std::string tls_error;
}  // namespace

cudaStream_t current_stream() { return tls_stream; }
void set_current_stream(cudaStream_t s) { tls_stream = s; }

const char* last_error() { return tls_error.c_str(); }

int status_of(cudaError_t err) {
  if (err == cudaSuccess) return JT_OK;
  tls_error = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
  return JTC_CUDA_ERROR;
}

unsigned blocks_for(int64_t work) {
  static const int64_t cap = [] {
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0) sms = 132;
    return (int64_t)sms * 16;  // 16 resident blocks of 256 threads per SM at most: grid-stride beyond
  }();
  int64_t b = (work + kThreads - 1) / kThreads;
  return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

// Copies between the host's buffer and the device on the current stream, then waits: the
// host buffer (a Java array pinned for the call) is only valid until we return.
int copy_sync(void* dst, const void* src, int64_t nbytes, cudaMemcpyKind kind) {
  if (nbytes <= 0) return JT_OK;
  cudaStream_t s = current_stream();
  cudaError_t err = cudaMemcpyAsync(dst, src, (size_t)nbytes, kind, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  return status_of(err);
}

}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

const char* jtc_last_error(void) { return last_error(); }

int jtc_memcpy_d2d(int64_t dst, int64_t src, int64_t n) {
  if (n <= 0) return JT_OK;
  return status_of(cudaMemcpyAsync((void*)dst, (const void*)src, (size_t)n, cudaMemcpyDeviceToDevice, current_stream()));
}
int jtc_read_bytes(int64_t src, void* dst, int64_t n) { return copy_sync(dst, (const void*)src, n, cudaMemcpyDeviceToHost); }
int jtc_write_bytes(int64_t dst, const void* src, int64_t n) { return copy_sync((void*)dst, src, n, cudaMemcpyHostToDevice); }
int jtc_memcpy_to_host(int64_t dst, int64_t src, int64_t n) { return copy_sync((void*)dst, (const void*)src, n, cudaMemcpyDeviceToHost); }
int jtc_memcpy_to_device(int64_t dst, int64_t src, int64_t n) { return copy_sync((void*)dst, (const void*)src, n, cudaMemcpyHostToDevice); }
int jtc_synchronize(void) { return status_of(cudaStreamSynchronize(current_stream())); }
void jtc_set_current_stream(int64_t stream) { set_current_stream(reinterpret_cast<cudaStream_t>(stream)); }
int64_t jtc_current_stream(void) { return reinterpret_cast<int64_t>(current_stream()); }
int jtc_memcpy_to_device_async(int64_t dst, int64_t src_host, int64_t n) {
  if (n <= 0) return JT_OK;
  return status_of(cudaMemcpyAsync((void*)dst, (const void*)src_host, (size_t)n, cudaMemcpyHostToDevice, current_stream()));
}

// One element: its bytes cross, the conversion is the CPU's (jt/dtype.h).
template <typename R>
int load_element(int64_t addr, int dtype, R* out) {
  if (!valid_dtype(dtype)) return JT_INVALID;
  int64_t slot = 0;
  int st = copy_sync(&slot, (const void*)addr, (int64_t)dtype_size((DType)dtype), cudaMemcpyDeviceToHost);
  dispatch_dtype((DType)dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *out = convert<R, T>(load_elem(reinterpret_cast<const T*>(&slot)));
  });
  return st;
}

int store_element(int64_t addr, int dtype, bool integral, int64_t value_bits) {
  if (!valid_dtype(dtype)) return JT_INVALID;
  int64_t slot = element_bits((DType)dtype, integral, value_bits);
  return copy_sync((void*)addr, &slot, (int64_t)dtype_size((DType)dtype), cudaMemcpyHostToDevice);
}

int jtc_load_f64(int64_t addr, int dtype, double* out) { return load_element(addr, dtype, out); }
int jtc_load_i64(int64_t addr, int dtype, int64_t* out) { return load_element(addr, dtype, out); }
int jtc_store_f64(int64_t addr, int dtype, double v) {
  int64_t bits;
  std::memcpy(&bits, &v, 8);
  return store_element(addr, dtype, false, bits);
}
int jtc_store_i64(int64_t addr, int dtype, int64_t v) { return store_element(addr, dtype, true, v); }
