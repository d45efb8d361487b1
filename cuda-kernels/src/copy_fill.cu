// copy between any dtypes (device to device), fill, arange and linspace, on the current stream. Values
// convert with the CPU's rules (jt/dtype.h's convert and element_bits).
#include <cstring>

#include "jt/no_throw.h"
#include "jt/dtype.h"
#include "jt/plans.h"
#include "jt/sequences.h"
#include "geometry.cuh"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

struct CopyArgs {
  char* dst;
  const char* src;
  Geometry<2> g;
  int64_t n;
  bool dense;  // both walk their bytes in flat order
};

template <typename To, typename From>
__global__ void copy_kernel(const __grid_constant__ CopyArgs a) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < a.n; i += step) {
    int64_t off[2] = {i * (int64_t)sizeof(To), i * (int64_t)sizeof(From)};
    if (!a.dense) a.g.offsets(i, off);
    *at<To>(a.dst, off[0]) = convert<To, From>(load_elem(at<From>(a.src, off[1])));
  }
}

// Fills by element width: the value arrives as its element's bits.
template <typename U>
__global__ void fill_kernel(char* dst, const __grid_constant__ Geometry<1> g, int64_t n, bool dense, U value) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off = i * (int64_t)sizeof(U);
    if (!dense) g.offsets(i, &off);
    *at<U>(dst, off) = value;
  }
}

template <typename T>
__global__ void arange_kernel(T* dst, int64_t n, bool integral, int64_t start_i, int64_t step_i, double start_d, double step_d) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step)
    dst[i] = arange_value<T>(i, integral, start_i, step_i, start_d, step_d);
}

template <typename T>
__global__ void linspace_kernel(T* dst, int64_t steps, double start, double end, double step_d) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < steps; i += step)
    dst[i] = linspace_value<T>(i, steps, start, end, step_d);
}

int64_t numel(int ndim, const int64_t* sizes) {
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= sizes[d];
  return n;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int copy_unguarded(const int64_t* words) {
  copy_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dst_dtype) || !valid_dtype((int)r.src_dtype) || r.ndim < 0) return JT_INVALID;
  CopyArgs a;
  const DType dt = (DType)r.dst_dtype, st = (DType)r.src_dtype;
  const int64_t elem[2] = {(int64_t)dtype_size(dt), (int64_t)dtype_size(st)};
  const int64_t* strides[2] = {r.dst_strides, r.src_strides};
  if (!a.g.build((int)r.ndim, r.sizes, strides, elem)) return JT_INVALID;
  a.n = numel((int)r.ndim, r.sizes);
  if (a.n == 0) return JT_OK;
  a.dst = reinterpret_cast<char*>(r.dst);
  a.src = reinterpret_cast<const char*>(r.src);
  a.dense = a.g.dense(0, elem[0]) && a.g.dense(1, elem[1]);
  if (a.dense && dt == st) return jtc_memcpy_d2d(r.dst, r.src, a.n * elem[0]);
  dispatch_dtype(dt, [&](auto to) {
    dispatch_dtype(st, [&](auto from) {
      copy_kernel<typename decltype(to)::type, typename decltype(from)::type>
          <<<blocks_for(a.n), kThreads, 0, current_stream()>>>(a);
    });
  });
  return launch_status();
}
int jtc_copy(const int64_t* words) { return jt::guarded_status([&] { return copy_unguarded(words); }); }

static int fill_unguarded(const int64_t* words) {
  fill_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype) || r.ndim < 0) return JT_INVALID;
  const DType t = (DType)r.dtype;
  const int64_t elem = (int64_t)dtype_size(t);
  Geometry<1> g;
  if (!g.build((int)r.ndim, r.sizes, &r.strides, &elem)) return JT_INVALID;
  const int64_t n = numel((int)r.ndim, r.sizes);
  if (n == 0) return JT_OK;
  const int64_t bits = element_bits(t, r.integral != 0, r.value);
  char* dst = reinterpret_cast<char*>(r.dst);
  const bool dense = g.dense(0, elem);
  const unsigned blocks = blocks_for(n);
  cudaStream_t s = current_stream();
  switch (elem) {
    case 1: fill_kernel<uint8_t><<<blocks, kThreads, 0, s>>>(dst, g, n, dense, (uint8_t)bits); break;
    case 2: fill_kernel<uint16_t><<<blocks, kThreads, 0, s>>>(dst, g, n, dense, (uint16_t)bits); break;
    case 4: fill_kernel<uint32_t><<<blocks, kThreads, 0, s>>>(dst, g, n, dense, (uint32_t)bits); break;
    default: fill_kernel<uint64_t><<<blocks, kThreads, 0, s>>>(dst, g, n, dense, (uint64_t)bits); break;
  }
  return launch_status();
}
int jtc_fill(const int64_t* words) { return jt::guarded_status([&] { return fill_unguarded(words); }); }

static int arange_unguarded(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits) {
  if (!valid_dtype(dtype) || n < 0) return JT_INVALID;
  if (n == 0) return JT_OK;
  double start_d, step_d;  // as jt_arange reads them: exact longs, or doubles' bits
  std::memcpy(&start_d, &start_bits, 8);
  std::memcpy(&step_d, &step_bits, 8);
  if (is_integral) start_d = (double)start_bits, step_d = (double)step_bits;
  dispatch_dtype((DType)dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    arange_kernel<T><<<blocks_for(n), kThreads, 0, current_stream()>>>(reinterpret_cast<T*>(dst), n, is_integral != 0,
                                                                        start_bits, step_bits, start_d, step_d);
  });
  return launch_status();
}
int jtc_arange(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits) {
  return jt::guarded_status([&] { return arange_unguarded(dst, dtype, n, is_integral, start_bits, step_bits); });
}

static int linspace_unguarded(int64_t dst, int dtype, int64_t steps, double start, double end) {
  if (!valid_dtype(dtype) || steps < 0) return JT_INVALID;
  if (steps == 0) return JT_OK;
  const double step = linspace_step(steps, start, end);
  dispatch_dtype((DType)dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    linspace_kernel<T><<<blocks_for(steps), kThreads, 0, current_stream()>>>(reinterpret_cast<T*>(dst), steps, start, end, step);
  });
  return launch_status();
}
int jtc_linspace(int64_t dst, int dtype, int64_t steps, double start, double end) {
  return jt::guarded_status([&] { return linspace_unguarded(dst, dtype, steps, start, end); });
}
