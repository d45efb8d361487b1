// Normalization on CUDA (jt/norm.h, the CPU kernel's algebra): a block per statistics group, which
// sums the group for its mean (in double), then its centred squares (two passes, as the CPU), then
// writes the output; the backward a block per group for the input gradient (by channel also the weight and
// bias gradients), and for layer and group norm a kernel of its own for those: a block per
// channel over samples (s > 1), or tiles of 32 columns walking the rows (layer norm, s = 1).
// Sums run in the CPU's accumulator type (float for float16/bfloat16/float32).
#include <cmath>

#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/norm.h"
#include "jt/plans.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

template <typename T>
struct NormArgs {
  using A = opmath_t<T>;
  NormGeometry g;
  const T *x, *weight, *bias, *grad;
  double *mean, *rstd;
  T *y, *grad_x, *grad_weight, *grad_bias;

  __device__ A w(int64_t ch) const { return weight ? (A)weight[ch] : A(1); }
  __device__ A b(int64_t ch) const { return bias ? (A)bias[ch] : A(0); }
};

// Every thread of the block ends with the block's sums of a and b (shared: 64 values).
template <typename S>
__device__ void block_sum2(S& a, S& b, double* shared_words) {
  S* shared = reinterpret_cast<S*>(shared_words);
  for (int d = 16; d > 0; d /= 2) {
    a += __shfl_xor_sync(0xffffffffu, a, d);
    b += __shfl_xor_sync(0xffffffffu, b, d);
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if (lane == 0) {
    shared[warp] = a;
    shared[32 + warp] = b;
  }
  __syncthreads();
  a = 0;
  b = 0;
  for (int k = 0; k < warps; ++k) {
    a += shared[k];
    b += shared[32 + k];
  }
  __syncthreads();  // shared is free for the next call
}

template <typename T>
__global__ void norm_forward_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  const int64_t m = g.unit_elements();
  for (int64_t u = blockIdx.x; u < g.units(); u += gridDim.x) {
    double mean_d, rstd_d;
    int64_t ch;
    if (g.fixed) {
      mean_d = a.mean[u];
      rstd_d = a.rstd[u];
    } else {
      double sum = 0, none = 0;  // in double: x itself may be large against its spread
      for (int64_t j = threadIdx.x; j < m; j += blockDim.x) sum += (double)(A)a.x[g.offset(u, j, ch)];
      block_sum2(sum, none, shared);
      mean_d = m > 0 ? sum / m : 0.0;
      const CenteredMean<A> c(mean_d);
      A sq = 0, zero = 0;
      for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
        const A d = c.center((A)a.x[g.offset(u, j, ch)]);
        sq += d * d;
      }
      block_sum2(sq, zero, shared);
      rstd_d = 1.0 / sqrt((m > 0 ? (double)sq / m : 0.0) + g.eps);
      if (threadIdx.x == 0) {
        a.mean[u] = mean_d;
        a.rstd[u] = rstd_d;
      }
    }
    const CenteredMean<A> c(mean_d);
    const A rstd = (A)rstd_d;
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const int64_t off = g.offset(u, j, ch);
      a.y[off] = (T)(c.center((A)a.x[off]) * (rstd * a.w(ch)) + a.b(ch));
    }
  }
}

template <typename T>
__global__ void norm_backward_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  const int64_t m = g.unit_elements();
  for (int64_t u = blockIdx.x; u < g.units(); u += gridDim.x) {
    const CenteredMean<A> c(a.mean[u]);
    const A rstd = (A)a.rstd[u];
    int64_t ch;
    A sg = 0, sgc = 0;  // Σ grad, Σ grad·(x - mean); weighted per element unless by channel
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const int64_t off = g.offset(u, j, ch);
      const A gv = g.by_channel ? (A)a.grad[off] : a.w(ch) * (A)a.grad[off];
      sg += gv;
      sgc += gv * c.center((A)a.x[off]);
    }
    block_sum2(sg, sgc, shared);
    A sum_g = sg, sum_gc = sgc;
    if (g.by_channel) {
      const A w = a.w(u);
      sum_g *= w;
      sum_gc *= w;
      if (threadIdx.x == 0) {
        if (a.grad_weight) a.grad_weight[u] = (T)(rstd * sgc);
        if (a.grad_bias) a.grad_bias[u] = (T)sg;
      }
    }
    if (!a.grad_x) continue;
    A b, d;
    norm_dx_terms<A>(rstd, sum_g, sum_gc, (A)m, g.fixed, b, d);
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const int64_t off = g.offset(u, j, ch);
      a.grad_x[off] = (T)(rstd * (a.w(ch) * (A)a.grad[off] - d) + b * c.center((A)a.x[off]));
    }
  }
}

// Layer and group norm, s > 1: channel blockIdx's weight and bias gradients over every sample.
template <typename T>
__global__ void weight_grad_planes_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  for (int64_t ch = blockIdx.x; ch < g.c; ch += gridDim.x) {
    A gw = 0, gb = 0;
    for (int64_t nn = 0; nn < g.n; ++nn) {
      const int64_t u = g.unit_of(nn, ch), base = (nn * g.c + ch) * g.s;
      const CenteredMean<A> c(a.mean[u]);
      const A rstd = (A)a.rstd[u];
      for (int64_t i = threadIdx.x; i < g.s; i += blockDim.x) {
        const A gv = (A)a.grad[base + i];
        gw += gv * c.center((A)a.x[base + i]) * rstd;
        gb += gv;
      }
    }
    block_sum2(gw, gb, shared);
    if (threadIdx.x == 0) {
      if (a.grad_weight) a.grad_weight[ch] = (T)gw;
      if (a.grad_bias) a.grad_bias[ch] = (T)gb;
    }
  }
}

// Layer norm (s = 1): a block of 32 x kRowThreads threads per 32 columns, each walking a share of the rows.
constexpr int kRowThreads = 8;

template <typename T>
__global__ void weight_grad_columns_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ A sw[kRowThreads][33], sb[kRowThreads][33];
  const NormGeometry& g = a.g;
  const int64_t ch = blockIdx.x * 32 + threadIdx.x;
  A gw = 0, gb = 0;
  if (ch < g.c) {
    for (int64_t nn = threadIdx.y; nn < g.n; nn += kRowThreads) {
      const int64_t u = g.unit_of(nn, ch), off = nn * g.c + ch;
      const A gv = (A)a.grad[off];
      gw += gv * CenteredMean<A>(a.mean[u]).center((A)a.x[off]) * (A)a.rstd[u];
      gb += gv;
    }
  }
  sw[threadIdx.y][threadIdx.x] = gw;
  sb[threadIdx.y][threadIdx.x] = gb;
  __syncthreads();
  if (threadIdx.y == 0 && ch < g.c) {
    for (int k = 1; k < kRowThreads; ++k) {
      gw += sw[k][threadIdx.x];
      gb += sb[k][threadIdx.x];
    }
    if (a.grad_weight) a.grad_weight[ch] = (T)gw;
    if (a.grad_bias) a.grad_bias[ch] = (T)gb;
  }
}

template <typename T>
int norm_typed(const norm_plan& r, const NormGeometry& g) {
  NormArgs<T> a;
  a.g = g;
  a.x = reinterpret_cast<const T*>(r.x);
  a.weight = reinterpret_cast<const T*>(r.weight);
  a.bias = reinterpret_cast<const T*>(r.bias);
  a.grad = reinterpret_cast<const T*>(r.grad);
  a.mean = reinterpret_cast<double*>(r.mean);
  a.rstd = reinterpret_cast<double*>(r.rstd);
  a.y = reinterpret_cast<T*>(r.y);
  a.grad_x = reinterpret_cast<T*>(r.grad_x);
  a.grad_weight = reinterpret_cast<T*>(r.grad_weight);
  a.grad_bias = reinterpret_cast<T*>(r.grad_bias);
  const int64_t units = g.units();
  const unsigned grid = (unsigned)(units < 65535 ? units : 65535);
  if (!r.backward) {
    if (units > 0) norm_forward_kernel<T><<<grid, kThreads, 0, current_stream()>>>(a);
    return launch_status();
  }
  if (units > 0 && (a.grad_x || g.by_channel)) norm_backward_kernel<T><<<grid, kThreads, 0, current_stream()>>>(a);
  if (!g.by_channel && g.c > 0 && (a.grad_weight || a.grad_bias)) {
    if (g.s == 1) {
      weight_grad_columns_kernel<T><<<(unsigned)((g.c + 31) / 32), dim3(32, kRowThreads), 0, current_stream()>>>(a);
    } else {
      weight_grad_planes_kernel<T><<<(unsigned)(g.c < 65535 ? g.c : 65535), kThreads, 0, current_stream()>>>(a);
    }
  }
  return launch_status();
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

int jtc_norm(const int64_t* words) {
  norm_plan r(words);
  NormGeometry g;
  if (!r.current() || !valid_dtype((int)r.dtype) || !g.read(r)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) st = norm_typed<T>(r, g);
  });
  return st;
}
