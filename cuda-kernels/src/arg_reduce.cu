// argmax/argmin (and the values of max/min) with the CPU's rules: the index is the flat
// row-major position within the reduced dims, ties keep the first, a NaN wins and the first NaN
// stays. One block per output: threads take strided shares, then (value, index) pairs combine.
#include "jt/functors.h"
#include "reduce_args.cuh"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

// Whether (v, i) should replace the best (b, j) so far.
template <bool IsMax, typename A>
__device__ bool better(A v, int64_t i, A b, int64_t j) {
  const bool vn = v != v, bn = b != b;
  if (vn || bn) return vn && (!bn || i < j);
  if (v == b) return i < j;
  return IsMax ? v > b : v < b;
}

template <bool IsMax, typename T>
__global__ void arg_kernel(const __grid_constant__ RedArgs a) {
  using A = opmath_t<T>;
  __shared__ __align__(8) unsigned char smem[kThreads * sizeof(A)];
  __shared__ int64_t sidx[kThreads];
  A* sval = reinterpret_cast<A*>(smem);
  for (int64_t o = blockIdx.x; o < a.nout; o += gridDim.x) {  // past 2^31 - 1 outputs, blocks take several
    int64_t koff[3];
    a.kept.offsets(o, koff);
    A best = A(0);
    int64_t best_i = INT64_MAX;  // none yet
    for (int64_t r = threadIdx.x; r < a.nred; r += blockDim.x) {
      int64_t roff;
      a.reduced.offsets(r, &roff);
      const A v = (A)load_elem(at<T>(a.in, koff[1] + roff));
      if (best_i == INT64_MAX || better<IsMax>(v, r, best, best_i)) best = v, best_i = r;
    }
    sval[threadIdx.x] = best;
    sidx[threadIdx.x] = best_i;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) {
        const A v = sval[threadIdx.x + half];
        const int64_t i = sidx[threadIdx.x + half];
        if (i != INT64_MAX && (sidx[threadIdx.x] == INT64_MAX || better<IsMax>(v, i, sval[threadIdx.x], sidx[threadIdx.x]))) {
          sval[threadIdx.x] = v;
          sidx[threadIdx.x] = i;
        }
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {  // slot 0 is thread 0's alone until the next output's first barrier
      *at<int64_t>(a.out, koff[0]) = sidx[0] == INT64_MAX ? 0 : sidx[0];
      if (a.values) *at<T>(a.values, koff[2]) = (T)sval[0];
    }
  }
}

}  // namespace

int arg_reduce_run(bool is_max, DType dtype, RedArgs& a) {
  if (a.nred == 0) return JT_INVALID;  // Java refuses an empty arg reduction first
  const unsigned blocks = (unsigned)(a.nout < INT32_MAX ? a.nout : INT32_MAX);  // gridDim.x's limit
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (is_max) arg_kernel<true, T><<<blocks, kThreads, 0, current_stream()>>>(a);
    else arg_kernel<false, T><<<blocks, kThreads, 0, current_stream()>>>(a);
  });
  return launch_status();
}

}  // namespace cuda
}  // namespace jt
