// What the attention kernels of every dtype share (attention.cu: float32 and float64 on CUDA
// cores; attention_tc.cu: float16 and bfloat16 on tensor cores): the plan's operands, a score from
// its dot product, the dropout draw, the backward's row dots, the head sizes built. Scores,
// probabilities, the row log-sum-exp and every sum are in A, T's math type (float for 16-bit T).
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "jt/attention.h"
#include "jt/dtype.h"
#include "jt/functors.h"
#include "jt/philox.h"
#include "runtime.cuh"
#include "scratch.cuh"

namespace jt {
namespace cuda {
namespace attn {

constexpr int kTile = 64;          // query rows, and keys, of a tile
constexpr int kAttnThreads = 256;  // 16 x 16

template <typename T>
struct AttnArgs : AttentionOperands<T, opmath_t<T>> {
  opmath_t<T>* dsum;  // the backward's D_i, in scratch
};

__device__ inline float exp_of(float x) { return expf(x); }
__device__ inline double exp_of(double x) { return exp(x); }
__device__ inline float log_of(float x) { return logf(x); }
__device__ inline double log_of(double x) { return log(x); }

template <typename A>
__device__ inline A nan_max(A a, A b) {
  return (a > b || a != a) ? a : b;  // NaN wins, as the CPU's
}

__host__ __device__ inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

template <typename A>
__device__ inline A ninf() {
  return -INFINITY;
}

// A half-warp's (one row's 16 threads) maximum and sum.
template <typename T>
__device__ inline T row_max(T x) {
#pragma unroll
  for (int d = 8; d > 0; d /= 2) x = nan_max(x, (T)__shfl_xor_sync(0xffffffffu, x, d));
  return x;
}
template <typename T>
__device__ inline T row_sum(T x) {
#pragma unroll
  for (int d = 8; d > 0; d /= 2) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}

// The score of query qi and key kj of (b, h) from their dot product: scaled, plus the additive
// mask (in A), -inf where masked, causal (kj > qi) or outside the tile's valid rows and keys.
template <typename T, typename A = opmath_t<T>>
__device__ inline A score_of(const AttnArgs<T>& a, A dot, int64_t b, int64_t h, int64_t qi, int64_t kj, bool valid) {
  if (!valid || (a.causal && kj > qi)) return ninf<A>();
  A s = dot * a.tscale;
  if (a.mask_kind != 0) {
    const int64_t off = b * a.ms[0] + h * a.ms[1] + qi * a.ms[2] + kj * a.ms[3];
    if (a.mask_kind == 1) {
      if (!static_cast<const bool*>(a.mask)[off]) return ninf<A>();
    } else {
      s += static_cast<const A*>(a.mask)[off];
    }
  }
  return s;
}

// Score el's dropout factor, keep or 0 (jt/attention.h's draw).
template <typename T, typename A = opmath_t<T>>
__device__ inline A dropout_factor(const AttnArgs<T>& a, uint64_t el) {
  uint32_t w[4];
  philox_block(a.seed, a.counter + attention_draw_block(el), w);
  return attention_kept(w, el, a.dropout) ? a.keep : A(0);
}

// One row's step of the online softmax over a 64-key tile, from this thread's four scores s of
// it (keys tx + 16 j, already scaled and masked): the row's running max m and sum l updated, its
// output o (this thread's C columns) rescaled to the new max, the probabilities into p, dropped
// where the row's tile is valid (valid(j)) and dropout drops them.
template <typename T, int C, typename Valid, typename A = opmath_t<T>>
__device__ inline void online_softmax_row(const AttnArgs<T>& a, const A (&s)[4], A& m, A& l, A (&o)[C], A (&p)[4], int64_t b,
                                          int64_t h, int64_t qi, int64_t j0, Valid valid) {
  const int tx = threadIdx.x % 16;
  A top = ninf<A>();
#pragma unroll
  for (int j = 0; j < 4; ++j) top = nan_max(top, s[j]);
  const A mnew = nan_max(row_max(top), m);
  const bool any = mnew != ninf<A>();  // false: every key so far masked, nothing changes
  A sum = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    p[j] = any ? exp_of(s[j] - mnew) : A(0);
    sum += p[j];
  }
  sum = row_sum(sum);
  if (!any) return;
  const A corr = exp_of(m - mnew);
  l = l * corr + sum;
  m = mnew;
#pragma unroll
  for (int j = 0; j < C; ++j) o[j] *= corr;
  if (a.dropout > 0) {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (valid(j)) p[j] *= dropout_factor(a, a.score_index(b, h, qi, j0 + tx + 16 * j));
  }
}

// D_i = dO_i · O_i for every query row (a warp per row): the sum over keys of P dP.
template <typename T>
__global__ void row_dot_kernel(const __grid_constant__ AttnArgs<T> a, int64_t rows) {
  using A = opmath_t<T>;
  const int lane = threadIdx.x % 32;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  for (int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; row < rows; row += warps) {
    A acc = 0;
    for (int d = lane; d < a.ev; d += 32) acc += (A)a.grad_out[row * a.ev + d] * (A)a.out[row * a.ev + d];
    for (int s = 16; s > 0; s /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, s);
    if (lane == 0) a.dsum[row] = acc;
  }
}

// Raises a kernel's dynamic shared memory limit to bytes on the current device, once: the limit
// stays set, so later launches skip the driver call (it was made before every launch).
inline int allow_dynamic_smem(const void* kernel, size_t bytes) {
  int device = 0;
  int st = status_of(cudaGetDevice(&device));
  if (st != JT_OK) return st;
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, size_t> allowed;  // (kernel, device) -> bytes set
  std::lock_guard<std::mutex> hold(lock);
  size_t& have = allowed[{kernel, device}];
  if (have >= bytes) return JT_OK;
  st = status_of(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  if (st == JT_OK) have = bytes;
  return st;
}

// An attention kernel: one block of `threads` per tile, `bytes` of dynamic shared memory.
template <typename T>
struct TileKernel {
  void (*kernel)(const AttnArgs<T>);
  size_t bytes;
  int threads;
  int launch(const AttnArgs<T>& a, int64_t tiles, cudaStream_t stream) const {
    const int st = allow_dynamic_smem(reinterpret_cast<const void*>(kernel), bytes);
    if (st != JT_OK) return st;
    kernel<<<(unsigned)tiles, threads, bytes, stream>>>(a);
    return launch_status();
  }
};

// One call's launches, the same for every dtype's kernels: mode 0 the forward, a block per query
// tile; mode 1 the rows' D_i into scratch, then the key/value kernel (a block per key tile) and the
// query kernel (a block per query tile) in stream order, each only when its gradients are wanted.
template <typename T>
int launch_attention(const AttnArgs<T>& a, int mode, cudaStream_t stream, TileKernel<T> forward, TileKernel<T> key_value,
                     TileKernel<T> query) {
  const int64_t qtiles = a.batch * a.heads * ((a.lq + kTile - 1) / kTile);
  const int64_t ktiles = a.batch * a.kv_heads * ((a.lk + kTile - 1) / kTile);
  if (qtiles > INT32_MAX || ktiles > INT32_MAX) return JT_INVALID;
  if (mode == 0) return qtiles == 0 ? JT_OK : forward.launch(a, qtiles, stream);
  const int64_t rows = a.batch * a.heads * a.lq;
  Scratch dsum;
  if (rows > 0 && !dsum.allocate((size_t)rows * sizeof(opmath_t<T>))) return JT_OUT_OF_MEMORY;
  AttnArgs<T> g = a;
  g.dsum = dsum.data<opmath_t<T>>();
  if (rows > 0) {
    row_dot_kernel<T><<<blocks_for(rows * 32), kThreads, 0, stream>>>(g, rows);
    const int st = launch_status();
    if (st != JT_OK) return st;
  }
  if ((g.grad_k || g.grad_v) && ktiles > 0) {
    const int st = key_value.launch(g, ktiles, stream);
    if (st != JT_OK) return st;
  }
  return g.grad_q && qtiles > 0 ? query.launch(g, qtiles, stream) : JT_OK;
}

// The head size a kernel is built for: the smallest of 32, 64 and 128 that holds e and ev; 0 if none.
inline int head_size_for(int64_t e, int64_t ev) {
  const int64_t need = e > ev ? e : ev;
  for (int D : {32, 64, 128})
    if (need <= D) return D;
  return 0;
}

// The largest dynamic shared memory a block may ask for on this device (0 when unknown).
inline size_t shared_optin() {
  int device = 0, optin = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) return 0;
  return (size_t)optin;
}

}  // namespace attn

// The float16 and bfloat16 kernels (attention_tc.cu), T one of the two (the caller's dispatch on
// the plan's dtype is the only one): mode 0 or 1 of the plan; JT_NO_KERNEL for head sizes they are
// not built for. attention_tensor_cores_fit: whether they run for e and ev on this device.
template <typename T>
int attention_tensor_cores(const attention_plan& r);
bool attention_tensor_cores_fit(int64_t e, int64_t ev);

}  // namespace cuda
}  // namespace jt
