// Normalization on CUDA (jt/norm.h, the CPU kernel's algebra). Layer and group norm: a block per
// statistics group, which sums the group for its mean (in double), then its centred squares (two
// passes, as the CPU), then writes the output; the backward a block per group for the input
// gradient, and a kernel of its own for the weight's and bias's: a block per channel over samples
// (s > 1), or tiles of 32 columns walking the rows (layer norm, s = 1). Batch norm: each channel
// spread over many blocks (a handful of channels must still fill the device), their sums added by
// atomics into scratch, each pass a kernel in stream order.
// Sums run in the CPU's accumulator type (float for float16/bfloat16/float32).
#include <cmath>

#include "jt/no_throw.h"
#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/norm.h"
#include "jt/plans.h"
#include "runtime.cuh"
#include "scratch.cuh"

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

// Layer and group norm: a block per group, whose elements are one contiguous run from base; the
// channel of element j is ch0 + j / s, needed only where there is a weight or bias (and s = 1 for
// layer norm: no division at all).
template <typename T>
__device__ inline int64_t channel_at(const NormArgs<T>& a, int64_t ch0, int64_t j) {
  return a.g.s == 1 ? ch0 + j : ch0 + j / a.g.s;
}

// Each thread keeps up to kCached of its group's elements in registers (elements threadIdx.x +
// k·blockDim.x), so a group of up to kCached·blockDim.x elements (16,384 at 1,024 threads) is read
// from memory once for its three passes; a longer one is read again for each.
constexpr int kCached = 16;

template <typename T>
__global__ void __launch_bounds__(1024) group_forward_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  const int64_t m = g.unit_elements(), cpg = g.channels_per_group(), step = blockDim.x;
  const bool affine = a.weight || a.bias, cached = m <= kCached * step;
  for (int64_t u = blockIdx.x; u < g.units(); u += gridDim.x) {
    const int64_t nn = u / g.groups, ch0 = (u - nn * g.groups) * cpg, base = (nn * g.c + ch0) * g.s;
    const T* x = a.x + base;
    A v[kCached];
    double sum = 0, none = 0;  // in double: x itself may be large against its spread
    if (cached) {
#pragma unroll
      for (int k = 0; k < kCached; ++k) {
        const int64_t j = threadIdx.x + k * step;
        v[k] = j < m ? (A)x[j] : A(0);
        sum += (double)v[k];
      }
    } else {
      for (int64_t j = threadIdx.x; j < m; j += step) sum += (double)(A)x[j];
    }
    block_sum2(sum, none, shared);
    const double mean_d = m > 0 ? sum / m : 0.0;
    const CenteredMean<A> c(mean_d);
    A sq = 0, zero = 0;
    if (cached) {
#pragma unroll
      for (int k = 0; k < kCached; ++k) {
        const A d = threadIdx.x + k * step < m ? c.center(v[k]) : A(0);
        sq += d * d;
      }
    } else {
      for (int64_t j = threadIdx.x; j < m; j += step) {
        const A d = c.center((A)x[j]);
        sq += d * d;
      }
    }
    block_sum2(sq, zero, shared);
    const double rstd_d = 1.0 / sqrt((m > 0 ? (double)sq / m : 0.0) + g.eps);
    if (threadIdx.x == 0) {
      a.mean[u] = mean_d;
      a.rstd[u] = rstd_d;
    }
    const A rstd = (A)rstd_d;
    T* y = a.y + base;
    auto out = [&](int64_t j, A xv) {
      if (affine) {
        const int64_t ch = channel_at(a, ch0, j);
        y[j] = (T)(c.center(xv) * (rstd * a.w(ch)) + a.b(ch));
      } else {
        y[j] = (T)(c.center(xv) * rstd);
      }
    };
    if (cached) {
#pragma unroll
      for (int k = 0; k < kCached; ++k) {
        const int64_t j = threadIdx.x + k * step;
        if (j < m) out(j, v[k]);
      }
    } else {
      for (int64_t j = threadIdx.x; j < m; j += step) out(j, (A)x[j]);
    }
  }
}

template <typename T>
__global__ void group_backward_kernel(const __grid_constant__ NormArgs<T> a) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  const int64_t m = g.unit_elements(), cpg = g.channels_per_group();
  for (int64_t u = blockIdx.x; u < g.units(); u += gridDim.x) {
    const int64_t nn = u / g.groups, ch0 = (u - nn * g.groups) * cpg, base = (nn * g.c + ch0) * g.s;
    const T *x = a.x + base, *gr = a.grad + base;
    const CenteredMean<A> c(a.mean[u]);
    const A rstd = (A)a.rstd[u];
    A sg = 0, sgc = 0;  // Σ weight·grad, Σ weight·grad·(x - mean)
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const A gv = (a.weight ? a.w(channel_at(a, ch0, j)) : A(1)) * (A)gr[j];
      sg += gv;
      sgc += gv * c.center((A)x[j]);
    }
    block_sum2(sg, sgc, shared);
    A b, d;
    norm_dx_terms<A>(rstd, sg, sgc, (A)m, g.fixed, b, d);
    T* dx = a.grad_x + base;
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const A w = a.weight ? a.w(channel_at(a, ch0, j)) : A(1);
      dx[j] = (T)(rstd * (w * (A)gr[j] - d) + b * c.center((A)x[j]));
    }
  }
}

// Batch norm: each channel spread over gridDim.x blocks (blockIdx.y the channel, and every
// gridDim.y-th after it: gridDim.y stops at 65535), block x taking samples [n·x/gx, n·(x+1)/gx),
// its threads along s. Sums go to acc (two doubles a channel) by
// atomics; the kernels run in stream order: sums, then what needs them.
struct ChannelSpan {
  int64_t first, last;
  __device__ ChannelSpan(const NormGeometry& g) : first(g.n * blockIdx.x / gridDim.x), last(g.n * (blockIdx.x + 1) / gridDim.x) {}
};

// phase 0: acc[2c] = Σ x; phase 1: acc[2c + 1] = Σ (x - mean)², mean from acc[2c];
// phase 2 (backward): acc[2c] = Σ grad, acc[2c + 1] = Σ grad·(x - mean), mean the saved one.
template <typename T>
__global__ void channel_sums_kernel(const __grid_constant__ NormArgs<T> a, double* acc, int phase) {
  using A = opmath_t<T>;
  __shared__ double shared[64];
  const NormGeometry& g = a.g;
  const ChannelSpan span(g);
  for (int64_t ch = blockIdx.y; ch < g.c; ch += gridDim.y) {  // the same for the whole block: block_sum2's barriers
    const double mean_d = phase == 1 ? acc[2 * ch] / (double)g.unit_elements() : phase == 2 ? a.mean[ch] : 0.0;
    const CenteredMean<A> c(mean_d);
    double s1 = 0, s2 = 0;
    for (int64_t nn = span.first; nn < span.last; ++nn) {
      const int64_t base = (nn * g.c + ch) * g.s;
      A p1 = 0, p2 = 0;
      for (int64_t i = threadIdx.x; i < g.s; i += blockDim.x) {
        const A v = (A)a.x[base + i];
        if (phase == 0) {
          s1 += (double)v;
        } else if (phase == 1) {
          const A d = c.center(v);
          p2 += d * d;
        } else {
          const A gv = (A)a.grad[base + i];
          p1 += gv;
          p2 += gv * c.center(v);
        }
      }
      s1 += (double)p1;
      s2 += (double)p2;
    }
    block_sum2(s1, s2, shared);
    if (threadIdx.x == 0) {
      if (phase != 1) atomicAdd(&acc[2 * ch], s1);
      if (phase != 0) atomicAdd(&acc[2 * ch + 1], s2);
    }
  }
}

// The forward's statistics from the sums, a thread a channel.
template <typename T>
__global__ void channel_stats_kernel(const __grid_constant__ NormArgs<T> a, const double* acc) {
  const NormGeometry& g = a.g;
  const int64_t ch = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (ch >= g.c) return;
  const double m = (double)g.unit_elements();
  a.mean[ch] = m > 0 ? acc[2 * ch] / m : 0.0;
  a.rstd[ch] = 1.0 / sqrt((m > 0 ? acc[2 * ch + 1] / m : 0.0) + g.eps);
}

// The output (acc null) or, from the backward's sums in acc, the input gradient and (block (0, c)) the weight's and bias's.
template <typename T>
__global__ void channel_apply_kernel(const __grid_constant__ NormArgs<T> a, const double* acc) {
  using A = opmath_t<T>;
  const NormGeometry& g = a.g;
  const ChannelSpan span(g);
  for (int64_t ch = blockIdx.y; ch < g.c; ch += gridDim.y) {
    const CenteredMean<A> c(a.mean[ch]);
    const A rstd = (A)a.rstd[ch], w = a.w(ch);
    if (!acc) {
      const A scale = rstd * w, shift = a.b(ch);
      for (int64_t nn = span.first; nn < span.last; ++nn) {
        const int64_t base = (nn * g.c + ch) * g.s;
        for (int64_t i = threadIdx.x; i < g.s; i += blockDim.x) a.y[base + i] = (T)(c.center((A)a.x[base + i]) * scale + shift);
      }
      continue;
    }
    const A sg = (A)acc[2 * ch], sgc = (A)acc[2 * ch + 1];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      if (a.grad_weight) a.grad_weight[ch] = (T)(rstd * sgc);
      if (a.grad_bias) a.grad_bias[ch] = (T)sg;
    }
    if (!a.grad_x) continue;
    A b, d;
    norm_dx_terms<A>(rstd, w * sg, w * sgc, (A)g.unit_elements(), g.fixed, b, d);
    for (int64_t nn = span.first; nn < span.last; ++nn) {
      const int64_t base = (nn * g.c + ch) * g.s;
      for (int64_t i = threadIdx.x; i < g.s; i += blockDim.x) {
        a.grad_x[base + i] = (T)(rstd * (w * (A)a.grad[base + i] - d) + b * c.center((A)a.x[base + i]));
      }
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
  const int64_t ch = (int64_t)blockIdx.x * 32 + threadIdx.x;  // 64-bit: blockIdx.x * 32 wraps past 2^32 channels
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
  if (units == 0) return JT_OK;
  cudaStream_t stream = current_stream();
  if (g.by_channel) {
    // enough blocks to fill the device whatever the channel count: about 1024 in all, at most one a sample
    const int64_t per = g.n < 1 ? 1 : (1024 / g.c > g.n ? g.n : (1024 / g.c < 1 ? 1 : 1024 / g.c));
    const dim3 spread((unsigned)per, (unsigned)(g.c < 65535 ? g.c : 65535));  // gridDim.y's limit: blocks loop past it
    Scratch acc;
    if (!g.fixed || r.backward) {
      if (!acc.allocate((size_t)(2 * g.c) * sizeof(double))) return JT_OUT_OF_MEMORY;
      const int st = status_of(cudaMemsetAsync(acc.data(), 0, (size_t)(2 * g.c) * sizeof(double), stream));
      if (st != JT_OK) return st;
    }
    double* sums = acc.data<double>();
    if (!r.backward) {
      if (!g.fixed) {
        channel_sums_kernel<T><<<spread, kThreads, 0, stream>>>(a, sums, 0);
        channel_sums_kernel<T><<<spread, kThreads, 0, stream>>>(a, sums, 1);
        channel_stats_kernel<T><<<blocks_of(g.c), kThreads, 0, stream>>>(a, sums);
      }
      channel_apply_kernel<T><<<spread, kThreads, 0, stream>>>(a, nullptr);
      return launch_status();
    }
    channel_sums_kernel<T><<<spread, kThreads, 0, stream>>>(a, sums, 2);
    channel_apply_kernel<T><<<spread, kThreads, 0, stream>>>(a, sums);
    return launch_status();
  }
  const unsigned grid = (unsigned)(units < 65535 ? units : 65535);
  if (!r.backward) {  // threads enough for the group to stay in registers (kCached a thread), 1024 at most
    const int64_t m = g.unit_elements();
    const unsigned threads = m > 512 * kCached ? 1024 : m > 256 * kCached ? 512 : 256;
    group_forward_kernel<T><<<grid, threads, 0, stream>>>(a);
    return launch_status();
  }
  if (a.grad_x) group_backward_kernel<T><<<grid, kThreads, 0, stream>>>(a);
  if (g.c > 0 && (a.grad_weight || a.grad_bias)) {
    if (g.s == 1) {
      weight_grad_columns_kernel<T><<<(unsigned)((g.c + 31) / 32), dim3(32, kRowThreads), 0, stream>>>(a);
    } else {
      weight_grad_planes_kernel<T><<<(unsigned)(g.c < 65535 ? g.c : 65535), kThreads, 0, stream>>>(a);
    }
  }
  return launch_status();
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int norm_unguarded(const int64_t* words) {
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
int jtc_norm(const int64_t* words) { return jt::guarded_status([&] { return norm_unguarded(words); }); }
