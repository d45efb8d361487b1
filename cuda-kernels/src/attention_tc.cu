// Scaled dot-product attention in float16 and bfloat16 on tensor cores, flash-attention-2 style:
// attention.cu's tiling (a block per 64 query rows walking 64-key tiles, an online softmax, the
// backward as a key/value kernel and a query kernel recomputing probabilities from the row
// log-sum-exp, no atomics), with every product of two tiles (Q·Kᵀ, dO·Vᵀ, P·V, Pᵀ·dO, dSᵀ·Q, dS·K)
// a WMMA 16 x 16 x 16 product of 16-bit operands accumulated in float. Between the products the
// scores live in shared memory as float, where the 16 x 16 threads of attention.cu's layout (rows
// ty + 16 i, columns tx + 16 j) apply the scale, masks, causality, softmax and dropout in float;
// probabilities and score gradients go back to 16 bits only as the next product's operand, as in
// FlashAttention-2. The row log-sum-exp and D_i stay float.
//
// Shared memory holds 16-bit tiles of 64 rows of D + 8 elements (D: the head size rounded up to
// 32, 64 or 128; the padding's 16 bytes spread the fragments' rows over the banks), float score
// tiles of 64 x 68, 16-bit score tiles of 64 x 72, and per-row floats; every region starts on 32
// bytes, as WMMA's loads and stores need.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <type_traits>

#include "attention_common.cuh"
#include "jt/plans.h"
#include "runtime.cuh"
#include "scratch.cuh"

namespace jt {
namespace cuda {
namespace {

using namespace attn;
namespace wmma = nvcuda::wmma;

template <typename T> struct Wmma;
template <> struct Wmma<Half> {
  using type = __half;
  static __device__ type from(float f) { return __float2half_rn(f); }
};
template <> struct Wmma<BFloat16> {
  using type = __nv_bfloat16;
  static __device__ type from(float f) { return __float2bfloat16_rn(f); }
};
template <typename T>
using W = typename Wmma<T>::type;
using Acc = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;

constexpr int kPad = 8;            // elements past a 16-bit tile row's data
constexpr int kSld = kTile + 4;    // a float score row
constexpr int kPld = kTile + kPad;  // a 16-bit score row
__host__ __device__ constexpr int tile_ld(int D) { return D + kPad; }
__host__ __device__ constexpr int stage_ld(int D) { return D + 4; }

// A kernel's shared memory, in this order: `tiles` 16-bit [64][D + 8] tiles, `fscores` float
// [64][68] score tiles, `hscores` 16-bit [64][72] score tiles, `rows` runs of 64 floats, `stages`
// float [64][D + 4] tiles (a product's result on its way to registers or memory). Every region's
// size is a multiple of 32 bytes.
struct TcLayout {
  int tiles, fscores, hscores, rows, stages;
  __host__ __device__ constexpr size_t tile_bytes(int D) const { return (size_t)kTile * tile_ld(D) * 2; }
  __host__ __device__ constexpr size_t fscores_at(int D) const { return tiles * tile_bytes(D); }
  __host__ __device__ constexpr size_t hscores_at(int D) const { return fscores_at(D) + (size_t)fscores * kTile * kSld * 4; }
  __host__ __device__ constexpr size_t rows_at(int D) const { return hscores_at(D) + (size_t)hscores * kTile * kPld * 2; }
  __host__ __device__ constexpr size_t stages_at(int D) const { return rows_at(D) + (size_t)rows * kTile * 4; }
  __host__ __device__ constexpr size_t bytes(int D) const { return stages_at(D) + (size_t)stages * kTile * stage_ld(D) * 4; }
  template <typename T>
  __device__ T* tile(unsigned char* s, int D, int i) const { return reinterpret_cast<T*>(s + i * tile_bytes(D)); }
  __device__ float* fscore(unsigned char* s, int D, int i) const { return reinterpret_cast<float*>(s + fscores_at(D)) + i * kTile * kSld; }
  template <typename T>
  __device__ T* hscore(unsigned char* s, int D, int i) const { return reinterpret_cast<T*>(s + hscores_at(D)) + i * kTile * kPld; }
  __device__ float* row(unsigned char* s, int D, int i) const { return reinterpret_cast<float*>(s + rows_at(D)) + i * kTile; }
  __device__ float* stage(unsigned char* s, int D) const { return reinterpret_cast<float*>(s + stages_at(D)); }
};
// forward: Q, K, V; S; P; PV. Key/value gradients: K, V, Q, dO; S, dP (then the results' stage); PD, DS;
// lse, D. Query gradient: Q, dO, K, V; S, dP (then the stage); DS; lse, D. The float score tiles are
// 2 x 64 x 68 floats, which hold a [64][D + 4] stage for every D built.
__host__ __device__ constexpr TcLayout tc_forward_layout() { return {3, 1, 1, 0, 1}; }
__host__ __device__ constexpr TcLayout tc_key_value_layout() { return {4, 2, 2, 2, 0}; }
__host__ __device__ constexpr TcLayout tc_query_layout() { return {4, 2, 1, 2, 0}; }
static_assert(2 * kSld >= stage_ld(128), "the backward's stage must fit its two float score tiles");

// Rows [0, 64) and columns [0, D) of a 16-bit tile: src's rows (width elements apart) where r < rows
// and c < width, 0 elsewhere (padding must be finite: it meets zero probabilities). 16 bytes at a
// time when every row starts on 16 bytes.
template <typename T, int D>
__device__ void load_tile(T* dst, const T* src, int rows, int width) {
  constexpr int ld = tile_ld(D);
  if (width % 8 == 0 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
    constexpr int packs = D / 8;
    for (int idx = threadIdx.x; idx < kTile * packs; idx += kAttnThreads) {
      const int r = idx / packs, c = idx % packs * 8;
      uint4 v = make_uint4(0, 0, 0, 0);
      if (r < rows && c < width) v = *reinterpret_cast<const uint4*>(src + (int64_t)r * width + c);
      *reinterpret_cast<uint4*>(dst + r * ld + c) = v;
    }
    return;
  }
  for (int idx = threadIdx.x; idx < kTile * D; idx += kAttnThreads) {
    const int r = idx / D, c = idx % D;
    dst[r * ld + c] = (r < rows && c < width) ? src[(int64_t)r * width + c] : T(0.0f);
  }
}

template <typename T, int D>
__device__ inline void load_keys(const AttnArgs<T>& a, T* K, T* V, int64_t kv0, int64_t j0, int cols) {
  load_tile<T, D>(K, a.k + (kv0 + j0) * a.e, cols, (int)a.e);
  load_tile<T, D>(V, a.v + (kv0 + j0) * a.ev, cols, (int)a.ev);
}

// Query rows [row0, row0 + rows): Q, dO, and the rows' lse and D (-inf and 0 past rows).
template <typename T, int D>
__device__ inline void load_queries(const AttnArgs<T>& a, int64_t row0, int rows, T* Q, T* dO, float* lse, float* dsum) {
  load_tile<T, D>(Q, a.q + row0 * a.e, rows, (int)a.e);
  load_tile<T, D>(dO, a.grad_out + row0 * a.ev, rows, (int)a.ev);
  if (threadIdx.x < kTile) {
    const int r = threadIdx.x;
    lse[r] = r < rows ? a.lse[row0 + r] : ninf<float>();
    dsum[r] = r < rows ? a.dsum[row0 + r] : 0.0f;
  }
}

// S (64 x 64 floats, rows kSld apart) = X · Yᵀ over D, X and Y 16-bit tiles: warp w makes rows
// 16 (w / 2) and columns 32 (w % 2) to 32 (w % 2) + 32, two fragments.
template <typename T, int D>
__device__ void scores_mma(float* S, const T* X, const T* Y) {
  constexpr int ld = tile_ld(D);
  const int w = threadIdx.x / 32, r0 = w / 2 * 16, c0 = w % 2 * 32;
  const W<T>*x = reinterpret_cast<const W<T>*>(X), *y = reinterpret_cast<const W<T>*>(Y);
  Acc acc[2];
  wmma::fill_fragment(acc[0], 0.0f);
  wmma::fill_fragment(acc[1], 0.0f);
#pragma unroll
  for (int k = 0; k < D; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, W<T>, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, x + r0 * ld + k, ld);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, W<T>, wmma::col_major> fb;  // B(k, n) = Y[n][k]
      wmma::load_matrix_sync(fb, y + (c0 + 16 * j) * ld + k, ld);
      wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
  }
#pragma unroll
  for (int j = 0; j < 2; ++j) wmma::store_matrix_sync(S + r0 * kSld + c0 + 16 * j, acc[j], kSld, wmma::mem_row_major);
}

// acc += X · Y, a 64 x D result of X, 64 x 64 16-bit scores (rows kPld apart; Layout col_major
// reads X transposed: X(m, k) = X[k][m]), and Y a 16-bit [64][D] tile. Warp w holds fragments
// w·D/32 to (w + 1)·D/32 - 1 of the 4 x D/16, numbered along rows of fragments.
template <typename T, int D, typename Layout>
__device__ void product_mma(Acc (&acc)[D / 32], const T* X, const T* Y) {
  constexpr int ld = tile_ld(D), per = D / 32, cols = D / 16;
  constexpr bool rows_major = std::is_same<Layout, wmma::row_major>::value;
  const int w = threadIdx.x / 32;
  const W<T>*x = reinterpret_cast<const W<T>*>(X), *y = reinterpret_cast<const W<T>*>(Y);
#pragma unroll
  for (int k = 0; k < kTile; k += 16) {
#pragma unroll
    for (int t = 0; t < per; ++t) {
      const int f = w * per + t, m0 = f / cols * 16, n0 = f % cols * 16;
      wmma::fragment<wmma::matrix_a, 16, 16, 16, W<T>, Layout> fa;
      wmma::load_matrix_sync(fa, x + (rows_major ? m0 * kPld + k : k * kPld + m0), kPld);
      wmma::fragment<wmma::matrix_b, 16, 16, 16, W<T>, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, y + k * ld + n0, ld);
      wmma::mma_sync(acc[t], fa, fb, acc[t]);
    }
  }
}

template <int D>
__device__ void clear(Acc (&acc)[D / 32]) {
#pragma unroll
  for (int t = 0; t < D / 32; ++t) wmma::fill_fragment(acc[t], 0.0f);
}

// The 64 x D result held in acc into stage (rows stage_ld(D) apart).
template <int D>
__device__ void stage_out(float* stage, const Acc (&acc)[D / 32]) {
  constexpr int per = D / 32, cols = D / 16;
  const int w = threadIdx.x / 32;
#pragma unroll
  for (int t = 0; t < per; ++t) {
    const int f = w * per + t;
    wmma::store_matrix_sync(stage + f / cols * 16 * stage_ld(D) + f % cols * 16, acc[t], stage_ld(D), wmma::mem_row_major);
  }
}

// Rows [0, rows) and columns [0, width) of stage, times factor, into dst's rows (width apart) as T.
template <typename T, int D>
__device__ void write_stage(T* dst, const float* stage, int rows, int width, float factor) {
  for (int idx = threadIdx.x; idx < kTile * D; idx += kAttnThreads) {
    const int r = idx / D, c = idx % D;
    if (r < rows && c < width) {
      const W<T> v = Wmma<T>::from(stage[r * stage_ld(D) + c] * factor);
      reinterpret_cast<W<T>*>(dst)[(int64_t)r * width + c] = v;
    }
  }
}

template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) forward_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr int C = D / 16;
  constexpr TcLayout L = tc_forward_layout();
  extern __shared__ __align__(128) unsigned char smem[];
  T *Q = L.tile<T>(smem, D, 0), *K = L.tile<T>(smem, D, 1), *V = L.tile<T>(smem, D, 2);
  float *S = L.fscore(smem, D, 0), *PV = L.stage(smem, D);
  W<T>* P = L.hscore<W<T>>(smem, D, 0);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  load_tile<T, D>(Q, a.q + (bh * a.lq + i0) * a.e, rows, (int)a.e);
  float m[4], l[4], o[4][C];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    m[i] = ninf<float>();
    l[i] = 0;
#pragma unroll
    for (int j = 0; j < C; ++j) o[i][j] = 0;
  }
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;  // later keys are masked for every row
  for (int64_t j0 = 0; j0 < end; j0 += kTile) {
    const int cols = (int)imin(kTile, a.lk - j0);
    __syncthreads();  // the last tile's K, V, S, P and PV are read
    load_keys<T, D>(a, K, V, (b * a.kv_heads + hk) * a.lk, j0, cols);
    __syncthreads();
    scores_mma<T, D>(S, Q, K);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = ty + 16 * i;
      float s[4], p[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int c = tx + 16 * j;
        s[j] = score_of(a, S[r * kSld + c], b, h, i0 + r, j0 + c, r < rows && c < cols);
      }
      online_softmax_row<T, C>(a, s, m[i], l[i], o[i], p, b, h, i0 + r, j0, [&](int j) { return r < rows && tx + 16 * j < cols; });
#pragma unroll
      for (int j = 0; j < 4; ++j) P[r * kPld + tx + 16 * j] = Wmma<T>::from(p[j]);
    }
    __syncthreads();
    Acc acc[D / 32];
    clear<D>(acc);
    product_mma<T, D, wmma::row_major>(acc, reinterpret_cast<const T*>(P), V);
    stage_out<D>(PV, acc);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < C; ++j) o[i][j] += PV[(ty + 16 * i) * stage_ld(D) + tx + 16 * j];
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
    if (r >= rows) continue;
    const int64_t row = bh * a.lq + i0 + r;
    const float inv = l[i] == 0 ? 0.0f : 1.0f / l[i];  // 0: every key masked; NaN stays NaN
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int d = tx + 16 * j;
      if (d < a.ev) reinterpret_cast<W<T>*>(a.out)[row * a.ev + d] = Wmma<T>::from(o[i][j] * inv);
    }
    if (tx == 0) a.lse[row] = l[i] == 0 ? ninf<float>() : m[i] + log_of(l[i]);
  }
}

// The tile's score gradients into DS and (when PD is not null) its dropped probabilities into PD,
// 16-bit, from the float scores S = Q·Kᵀ and dP = dO·Vᵀ and the rows' lse and D.
template <typename T>
__device__ void tile_gradients(const AttnArgs<T>& a, const float* S, const float* dP, const float* lse, const float* dsum, int64_t b,
                               int64_t h, int64_t i0, int rows, int64_t j0, int cols, W<T>* PD, W<T>* DS) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = tx + 16 * j;
      const bool valid = r < rows && c < cols;
      const float sc = score_of(a, S[r * kSld + c], b, h, i0 + r, j0 + c, valid);
      const float p = lse[r] == ninf<float>() ? 0.0f : exp_of(sc - lse[r]);
      const float dp = dP[r * kSld + c];
      float pd = p, ds;
      if (a.dropout > 0) {
        const float z = valid ? dropout_factor(a, a.score_index(b, h, i0 + r, j0 + c)) : 0.0f;
        pd = p * z;
        ds = p * (dp * z - dsum[r]);
      } else {
        ds = p * (dp - dsum[r]);
      }
      if (PD) PD[r * kPld + c] = Wmma<T>::from(pd);
      DS[r * kPld + c] = Wmma<T>::from(ds);
    }
  }
}

// A tile's step shared by both gradient kernels, its tiles loaded: S = Q·Kᵀ and dP = dO·Vᵀ, then
// tile_gradients' DS (and PD), ready for the block's products when it returns.
template <typename T, int D>
__device__ void score_gradients(const AttnArgs<T>& a, const T* Q, const T* dO, const T* K, const T* V, float* S, float* dP,
                                const float* lse, const float* dsum, int64_t b, int64_t h, int64_t i0, int rows, int64_t j0, int cols,
                                W<T>* PD, W<T>* DS) {
  scores_mma<T, D>(S, Q, K);
  scores_mma<T, D>(dP, dO, V);
  __syncthreads();
  tile_gradients<T>(a, S, dP, lse, dsum, b, h, i0, rows, j0, cols, PD, DS);
  __syncthreads();
}

// The key and value gradients of 64 keys of (b, kv head): every query tile of the group's heads that sees them.
template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) key_value_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr TcLayout L = tc_key_value_layout();
  extern __shared__ __align__(128) unsigned char smem[];
  T *K = L.tile<T>(smem, D, 0), *V = L.tile<T>(smem, D, 1), *Q = L.tile<T>(smem, D, 2), *dO = L.tile<T>(smem, D, 3);
  float *S = L.fscore(smem, D, 0), *dP = L.fscore(smem, D, 1), *lse = L.row(smem, D, 0), *dsum = L.row(smem, D, 1);
  W<T>*PD = L.hscore<W<T>>(smem, D, 0), *DS = L.hscore<W<T>>(smem, D, 1);
  const int64_t kblocks = (a.lk + kTile - 1) / kTile, bhk = blockIdx.x / kblocks, j0 = (blockIdx.x % kblocks) * kTile;
  const int64_t b = bhk / a.kv_heads, hk = bhk % a.kv_heads, G = a.group();
  const int cols = (int)imin(kTile, a.lk - j0);
  load_keys<T, D>(a, K, V, bhk * a.lk, j0, cols);
  Acc dk[D / 32], dv[D / 32];
  clear<D>(dk);
  clear<D>(dv);
  for (int64_t g = 0; g < G; ++g) {
    const int64_t h = hk * G + g;
    for (int64_t i0 = a.causal ? j0 : 0; i0 < a.lq; i0 += kTile) {  // earlier queries see none of these keys
      const int rows = (int)imin(kTile, a.lq - i0);
      __syncthreads();  // the last tile's Q, dO, S, dP, PD and DS are read
      load_queries<T, D>(a, (b * a.heads + h) * a.lq + i0, rows, Q, dO, lse, dsum);
      __syncthreads();
      score_gradients<T, D>(a, Q, dO, K, V, S, dP, lse, dsum, b, h, i0, rows, j0, cols, PD, DS);
      // rows of dv and dk are keys: dV += PDᵀ · dO, dK += DSᵀ · Q
      product_mma<T, D, wmma::col_major>(dv, reinterpret_cast<const T*>(PD), dO);
      product_mma<T, D, wmma::col_major>(dk, reinterpret_cast<const T*>(DS), Q);
    }
  }
  const int64_t row0 = bhk * a.lk + j0;
  __syncthreads();  // S and dP become the stage
  stage_out<D>(S, dk);
  __syncthreads();
  if (a.grad_k) write_stage<T, D>(a.grad_k + row0 * a.e, S, cols, (int)a.e, a.tscale);
  __syncthreads();
  stage_out<D>(S, dv);
  __syncthreads();
  if (a.grad_v) write_stage<T, D>(a.grad_v + row0 * a.ev, S, cols, (int)a.ev, 1.0f);
}

// The query gradient of 64 query rows of (b, h): dQ = DS · K over every key tile the rows see.
template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) query_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr TcLayout L = tc_query_layout();
  extern __shared__ __align__(128) unsigned char smem[];
  T *Q = L.tile<T>(smem, D, 0), *dO = L.tile<T>(smem, D, 1), *K = L.tile<T>(smem, D, 2), *V = L.tile<T>(smem, D, 3);
  float *S = L.fscore(smem, D, 0), *dP = L.fscore(smem, D, 1), *lse = L.row(smem, D, 0), *dsum = L.row(smem, D, 1);
  W<T>* DS = L.hscore<W<T>>(smem, D, 0);
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  const int64_t row0 = bh * a.lq + i0;
  load_queries<T, D>(a, row0, rows, Q, dO, lse, dsum);
  Acc dq[D / 32];
  clear<D>(dq);
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;
  for (int64_t j0 = 0; j0 < end; j0 += kTile) {
    const int cols = (int)imin(kTile, a.lk - j0);
    __syncthreads();  // the last tile's K, V, S, dP and DS are read
    load_keys<T, D>(a, K, V, (b * a.kv_heads + hk) * a.lk, j0, cols);
    __syncthreads();
    score_gradients<T, D>(a, Q, dO, K, V, S, dP, lse, dsum, b, h, i0, rows, j0, cols, nullptr, DS);
    product_mma<T, D, wmma::row_major>(dq, reinterpret_cast<const T*>(DS), K);
  }
  __syncthreads();
  stage_out<D>(S, dq);
  __syncthreads();
  write_stage<T, D>(a.grad_q + row0 * a.e, S, rows, (int)a.e, a.tscale);
}

template <typename T, int D>
int run_sized(const AttnArgs<T>& a, int mode, cudaStream_t stream) {
  return launch_attention<T>(a, mode, stream, {forward_kernel<T, D>, tc_forward_layout().bytes(D)},
                             {key_value_grad_kernel<T, D>, tc_key_value_layout().bytes(D)}, {query_grad_kernel<T, D>, tc_query_layout().bytes(D)});
}

template <typename T>
int run(const attention_plan& r) {
  AttnArgs<T> a{};
  if (!a.read_operands(r) || (r.mode != 0 && r.mode != 1)) return JT_INVALID;
  if (!attention_tensor_cores_fit(r.e, r.ev)) return JT_NO_KERNEL;
  cudaStream_t stream = current_stream();
  switch (head_size_for(r.e, r.ev)) {
    case 32: return run_sized<T, 32>(a, (int)r.mode, stream);
    case 64: return run_sized<T, 64>(a, (int)r.mode, stream);
    default: return run_sized<T, 128>(a, (int)r.mode, stream);
  }
}

}  // namespace

int attention_tensor_cores(const attention_plan& r) {
  switch ((DType)r.dtype) {
    case DType::Float16: return run<Half>(r);
    case DType::BFloat16: return run<BFloat16>(r);
    default: return JT_NO_KERNEL;
  }
}

bool attention_tensor_cores_fit(int64_t e, int64_t ev) {
  const int D = head_size_for(e, ev);
  if (D == 0) return false;
  const size_t need = tc_key_value_layout().bytes(D);  // the largest of the three
  return need <= shared_optin();
}

}  // namespace cuda
}  // namespace jt
