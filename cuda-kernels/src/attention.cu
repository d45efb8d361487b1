// Scaled dot-product attention on CUDA (plans.h's attention plan), the CPU kernel's algebra
// (native/src/kernels/vectorized/attention.cpp) in flash-attention-2 form: the [lq, lk] scores are
// never stored. The forward is a block per 64 query rows walking 64-key tiles with an online
// softmax; it saves the output and each row's log-sum-exp. The backward is two kernels that
// recompute each tile's probabilities from the log-sum-exp: a block per 64 keys sums their key and
// value gradients over the query heads of their group, a block per 64 query rows sums its query
// gradient over the keys. Neither adds into another block's output, so the gradients are the same
// bits from run to run (no atomics). Dropout draws the CPU's Philox words, so a seed drops the same
// scores on both devices.
//
// Every tile sits in shared memory with rows of D + 16 bytes (D: the head size rounded up to 32, 64
// or 128), 16-byte aligned: the products over the head size (q·k, dO·v) read both operands' rows
// 16 bytes at a time, and 16 lanes reading 16 rows fall in distinct banks. 256 threads hold 4 x 4
// of a 64 x 64 score tile, rows ty + 16 i and columns tx + 16 j: a row's 16 threads are a half-warp.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "jt/no_throw.h"
#include "attention_common.cuh"
#include "jt/plans.h"
#include "runtime.cuh"
#include "scratch.cuh"

namespace jt {
namespace cuda {
namespace {

using namespace attn;

// Elements of one 16-byte read, and the padding that makes a row 16 bytes longer than its data.
template <typename T>
constexpr int kPack = 16 / (int)sizeof(T);
template <typename T>
struct alignas(16) Pack {
  T v[kPack<T>];
};
template <typename T>
__host__ __device__ constexpr int row_ld(int D) { return D + kPack<T>; }
template <typename T>
__host__ __device__ constexpr int score_ld() { return kTile + kPack<T>; }

// A kernel's shared memory: `tiles` tiles of 64 rows of row_ld(D), `scores` 64 x 64 score tiles
// (rows of score_ld), then `rows` runs of 64 per-row values (lse, D). The one statement of where
// each kernel's tiles lie and of the bytes its launch asks for.
struct SharedLayout {
  int tiles, scores, rows;
  template <typename T>
  __host__ __device__ size_t bytes(int D) const {
    return ((size_t)tiles * kTile * row_ld<T>(D) + (size_t)scores * kTile * score_ld<T>() + (size_t)rows * kTile) * sizeof(T);
  }
  template <typename T>
  __device__ T* tile(unsigned char* base, int D, int i) const { return reinterpret_cast<T*>(base) + (size_t)i * kTile * row_ld<T>(D); }
  template <typename T>
  __device__ T* score(unsigned char* base, int D, int i) const { return tile<T>(base, D, tiles) + (size_t)i * kTile * score_ld<T>(); }
  template <typename T>
  __device__ T* row(unsigned char* base, int D, int i) const { return score<T>(base, D, scores) + (size_t)i * kTile; }
};
// forward: Q, K, V and P; key/value gradients: K, V, Q, dO, P·z and dS, lse and D; query gradient: Q, dO, K, V, dS, lse and D
__host__ __device__ constexpr SharedLayout forward_layout() { return {3, 1, 0}; }
__host__ __device__ constexpr SharedLayout key_value_layout() { return {4, 2, 2}; }
__host__ __device__ constexpr SharedLayout query_layout() { return {4, 1, 2}; }

// Rows [0, kTile) and columns [0, D) of a tile (rows row_ld(D) apart): src's rows (width elements apart) where r < rows
// and c < width, 0 elsewhere (padding rows and columns must be finite: they meet zero probabilities).
template <typename T, int D>
__device__ void load_tile(T* dst, const T* src, int rows, int width) {
  for (int idx = threadIdx.x; idx < kTile * D; idx += kAttnThreads) {
    const int r = idx / D, c = idx % D;
    dst[r * row_ld<T>(D) + c] = (r < rows && c < width) ? src[(int64_t)r * width + c] : T(0);
  }
}

// Keys [j0, j0 + cols) of kv row block kv0 (= (b·kv_heads + hk)·lk) into K and V.
template <typename T, int D>
__device__ inline void load_keys(const AttnArgs<T>& a, T* K, T* V, int64_t kv0, int64_t j0, int cols) {
  load_tile<T, D>(K, a.k + (kv0 + j0) * a.e, cols, (int)a.e);
  load_tile<T, D>(V, a.v + (kv0 + j0) * a.ev, cols, (int)a.ev);
}

// acc[i][j] += the sum over kk < depth of A(ty + 16 i, kk) · B(kk, tx + 16 j), with A(r, kk) at
// A[r·ar + kk·ak] and B(kk, c) at B[kk·bk + c·bc] in shared memory.
template <typename T, int C>
__device__ __forceinline__ void tile_mma(T (&acc)[4][C], const T* A, int ar, int ak, const T* B, int bk, int bc, int depth) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll 4
  for (int kk = 0; kk < depth; ++kk) {
    T a[4], b[C];
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = A[(ty + 16 * i) * ar + kk * ak];
#pragma unroll
    for (int j = 0; j < C; ++j) b[j] = B[kk * bk + (tx + 16 * j) * bc];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < C; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
  }
}

// acc[i][j] += the sum over kk < depth of A[(ty + 16 i)·lda + kk] · B[(tx + 16 j)·ldb + kk]: rows of A
// and of B contiguous in kk, read 16 bytes at a time (depth rounds up to whole reads: the tiles'
// padding columns are 0).
template <typename T>
__device__ __forceinline__ void tile_dot(T (&acc)[4][4], const T* A, int lda, const T* B, int ldb, int depth) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int kk = 0; kk < depth; kk += kPack<T>) {
    Pack<T> a[4], b[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = *reinterpret_cast<const Pack<T>*>(A + (ty + 16 * i) * lda + kk);
#pragma unroll
    for (int j = 0; j < 4; ++j) b[j] = *reinterpret_cast<const Pack<T>*>(B + (tx + 16 * j) * ldb + kk);
#pragma unroll
    for (int u = 0; u < kPack<T>; ++u)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i].v[u], b[j].v[u], acc[i][j]);
  }
}

// acc[i][j] += the sum over kk < depth of A[(ty + 16 i)·lda + kk] · B[kk·ldb + tx + 16 j]: A's rows read
// 16 bytes at a time, B row-major (depth a whole number of reads).
template <typename T, int C>
__device__ __forceinline__ void tile_mma_rows(T (&acc)[4][C], const T* A, int lda, const T* B, int ldb, int depth) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int kk = 0; kk < depth; kk += kPack<T>) {
    Pack<T> a[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = *reinterpret_cast<const Pack<T>*>(A + (ty + 16 * i) * lda + kk);
#pragma unroll
    for (int u = 0; u < kPack<T>; ++u) {
      T b[C];
#pragma unroll
      for (int j = 0; j < C; ++j) b[j] = B[(kk + u) * ldb + tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < C; ++j) acc[i][j] = fma(a[i].v[u], b[j], acc[i][j]);
    }
  }
}

template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) forward_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr int C = D / 16, ld = row_ld<T>(D), sld = score_ld<T>();
  constexpr SharedLayout L = forward_layout();
  extern __shared__ __align__(16) unsigned char smem[];
  T *Q = L.tile<T>(smem, D, 0), *K = L.tile<T>(smem, D, 1), *V = L.tile<T>(smem, D, 2), *P = L.score<T>(smem, D, 0);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  load_tile<T, D>(Q, a.q + (bh * a.lq + i0) * a.e, rows, a.e);
  T m[4], l[4], o[4][C];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    m[i] = ninf<T>();
    l[i] = 0;
#pragma unroll
    for (int j = 0; j < C; ++j) o[i][j] = 0;
  }
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;  // later keys are masked for every row
  for (int64_t j0 = 0; j0 < end; j0 += kTile) {
    const int cols = (int)imin(kTile, a.lk - j0);
    __syncthreads();  // the last tile's K, V and P are read
    load_keys<T, D>(a, K, V, (b * a.kv_heads + hk) * a.lk, j0, cols);
    __syncthreads();
    T s[4][4] = {};
    tile_dot<T>(s, Q, ld, K, ld, (int)a.e);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = ty + 16 * i;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int c = tx + 16 * j;
        s[i][j] = score_of(a, s[i][j], b, h, i0 + r, j0 + c, r < rows && c < cols);
      }
      T p[4];
      online_softmax_row<T, C>(a, s[i], m[i], l[i], o[i], p, b, h, i0 + r, j0,
                               [&](int j) { return r < rows && tx + 16 * j < cols; });
#pragma unroll
      for (int j = 0; j < 4; ++j) P[r * sld + tx + 16 * j] = p[j];
    }
    __syncthreads();
    tile_mma_rows<T, C>(o, P, sld, V, ld, kTile);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
    if (r >= rows) continue;
    const int64_t row = bh * a.lq + i0 + r;
    const T inv = l[i] == 0 ? T(0) : T(1) / l[i];  // 0: every key masked; NaN stays NaN
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int d = tx + 16 * j;
      if (d < a.ev) a.out[row * a.ev + d] = o[i][j] * inv;
    }
    if (tx == 0) a.lse[row] = l[i] == 0 ? ninf<T>() : m[i] + log_of(l[i]);
  }
}

// The tile's dropped probabilities pd and score gradients ds (rows: queries i0 + ty + 16 i, columns:
// keys j0 + tx + 16 j), from the Q, dO, K and V tiles and the rows' lse and D in shared memory.
template <typename T, int D>
__device__ __forceinline__ void tile_gradients(const AttnArgs<T>& a, const T* Q, const T* dO, const T* K, const T* V, const T* lse,
                                               const T* dsum, int64_t b, int64_t h, int64_t i0, int rows, int64_t j0, int cols,
                                               T (&pd)[4][4], T (&ds)[4][4]) {
  constexpr int ld = row_ld<T>(D);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  T s[4][4] = {}, dp[4][4] = {};
  tile_dot<T>(s, Q, ld, K, ld, (int)a.e);
  tile_dot<T>(dp, dO, ld, V, ld, (int)a.ev);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = tx + 16 * j;
      const bool valid = r < rows && c < cols;
      const T sc = score_of(a, s[i][j], b, h, i0 + r, j0 + c, valid);
      const T p = lse[r] == ninf<T>() ? T(0) : exp_of(sc - lse[r]);
      if (a.dropout > 0) {
        const T z = valid ? dropout_factor(a, a.score_index(b, h, i0 + r, j0 + c)) : T(0);
        pd[i][j] = p * z;
        ds[i][j] = p * (dp[i][j] * z - dsum[r]);
      } else {
        pd[i][j] = p;
        ds[i][j] = p * (dp[i][j] - dsum[r]);
      }
    }
  }
}

// Query rows [row0, row0 + rows) for the backward: Q, dO, and the rows' lse and D (-inf and 0 past rows).
template <typename T, int D>
__device__ inline void load_queries(const AttnArgs<T>& a, int64_t row0, int rows, T* Q, T* dO, T* lse, T* dsum) {
  load_tile<T, D>(Q, a.q + row0 * a.e, rows, (int)a.e);
  load_tile<T, D>(dO, a.grad_out + row0 * a.ev, rows, (int)a.ev);
  if (threadIdx.x < kTile) {
    const int r = threadIdx.x;
    lse[r] = r < rows ? a.lse[row0 + r] : ninf<T>();
    dsum[r] = r < rows ? a.dsum[row0 + r] : T(0);
  }
}

// The key and value gradients of 64 keys of (b, kv head): every query tile of the group's heads
// that sees them.
template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) key_value_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr int C = D / 16, ld = row_ld<T>(D), sld = score_ld<T>();
  constexpr SharedLayout L = key_value_layout();
  extern __shared__ __align__(16) unsigned char smem[];
  T *K = L.tile<T>(smem, D, 0), *V = L.tile<T>(smem, D, 1), *Q = L.tile<T>(smem, D, 2), *dO = L.tile<T>(smem, D, 3);
  T *PD = L.score<T>(smem, D, 0), *DS = L.score<T>(smem, D, 1), *lse = L.row<T>(smem, D, 0), *dsum = L.row<T>(smem, D, 1);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t kblocks = (a.lk + kTile - 1) / kTile, bhk = blockIdx.x / kblocks, j0 = (blockIdx.x % kblocks) * kTile;
  const int64_t b = bhk / a.kv_heads, hk = bhk % a.kv_heads, G = a.group();
  const int cols = (int)imin(kTile, a.lk - j0);
  load_keys<T, D>(a, K, V, bhk * a.lk, j0, cols);
  T dk[4][C], dv[4][C];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < C; ++j) dk[i][j] = dv[i][j] = 0;
  for (int64_t g = 0; g < G; ++g) {
    const int64_t h = hk * G + g;
    for (int64_t i0 = a.causal ? j0 : 0; i0 < a.lq; i0 += kTile) {  // earlier queries see none of these keys
      const int rows = (int)imin(kTile, a.lq - i0);
      const int64_t row0 = (b * a.heads + h) * a.lq + i0;
      __syncthreads();  // the last tile's Q, dO, PD and DS are read
      load_queries<T, D>(a, row0, rows, Q, dO, lse, dsum);
      __syncthreads();
      T pd[4][4], ds[4][4];
      tile_gradients<T, D>(a, Q, dO, K, V, lse, dsum, b, h, i0, rows, j0, cols, pd, ds);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          PD[(ty + 16 * i) * sld + tx + 16 * j] = pd[i][j];
          DS[(ty + 16 * i) * sld + tx + 16 * j] = ds[i][j];
        }
      __syncthreads();
      // rows of dv and dk are keys: dV += PDᵀ · dO, dK += DSᵀ · Q
      tile_mma<T, C>(dv, PD, 1, sld, dO, ld, 1, kTile);
      tile_mma<T, C>(dk, DS, 1, sld, Q, ld, 1, kTile);
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
    if (r >= cols) continue;
    const int64_t row = bhk * a.lk + j0 + r;
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int d = tx + 16 * j;
      if (a.grad_k && d < a.e) a.grad_k[row * a.e + d] = dk[i][j] * a.tscale;
      if (a.grad_v && d < a.ev) a.grad_v[row * a.ev + d] = dv[i][j];
    }
  }
}

// The query gradient of 64 query rows of (b, h): dQ = DS · K over every key tile the rows see.
template <typename T, int D>
__global__ void __launch_bounds__(kAttnThreads) query_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  constexpr int C = D / 16, ld = row_ld<T>(D), sld = score_ld<T>();
  constexpr SharedLayout L = query_layout();
  extern __shared__ __align__(16) unsigned char smem[];
  T *Q = L.tile<T>(smem, D, 0), *dO = L.tile<T>(smem, D, 1), *K = L.tile<T>(smem, D, 2), *V = L.tile<T>(smem, D, 3);
  T *DS = L.score<T>(smem, D, 0), *lse = L.row<T>(smem, D, 0), *dsum = L.row<T>(smem, D, 1);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  const int64_t row0 = bh * a.lq + i0;
  load_queries<T, D>(a, row0, rows, Q, dO, lse, dsum);
  T dq[4][C];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < C; ++j) dq[i][j] = 0;
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;
  for (int64_t j0 = 0; j0 < end; j0 += kTile) {
    const int cols = (int)imin(kTile, a.lk - j0);
    __syncthreads();  // the last tile's K, V and DS are read
    load_keys<T, D>(a, K, V, (b * a.kv_heads + hk) * a.lk, j0, cols);
    __syncthreads();
    T pd[4][4], ds[4][4];
    tile_gradients<T, D>(a, Q, dO, K, V, lse, dsum, b, h, i0, rows, j0, cols, pd, ds);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) DS[(ty + 16 * i) * sld + tx + 16 * j] = ds[i][j];
    __syncthreads();
    tile_mma_rows<T, C>(dq, DS, sld, K, ld, kTile);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = ty + 16 * i;
    if (r >= rows) continue;
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int d = tx + 16 * j;
      if (d < a.e) a.grad_q[(row0 + r) * a.e + d] = dq[i][j] * a.tscale;
    }
  }
}

// Mode 2: the dropout factors themselves, [batch, heads, lq, lk].
template <typename T>
__global__ void dropout_factors_kernel(const __grid_constant__ AttnArgs<T> a, int64_t n) {
  for (int64_t el = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; el < n; el += (int64_t)gridDim.x * blockDim.x)
    a.out[el] = (T)dropout_factor(a, (uint64_t)el);
}

// Whether this device's shared memory holds the kernels of head size D in T (128 in float64 does not fit).
template <typename T>
bool fits(int D) {
  return key_value_layout().bytes<T>(D) <= shared_optin();  // the largest of the three
}

template <typename T, int D>
int run_sized(const AttnArgs<T>& a, int mode, cudaStream_t stream) {
  return launch_attention<T>(a, mode, stream, {forward_kernel<T, D>, forward_layout().bytes<T>(D), kAttnThreads},
                             {key_value_grad_kernel<T, D>, key_value_layout().bytes<T>(D), kAttnThreads},
                             {query_grad_kernel<T, D>, query_layout().bytes<T>(D), kAttnThreads});
}

template <typename T>
int run(const attention_plan& r) {
  if constexpr (!std::is_same<opmath_t<T>, T>::value) {  // float16, bfloat16: attention_tc.cu's kernels
    if (r.mode == 0 || r.mode == 1) return attention_tensor_cores<T>(r);
  }
  AttnArgs<T> a{};
  if (!a.read_operands(r)) return JT_INVALID;
  cudaStream_t stream = current_stream();
  if (r.mode == 2) {
    const int64_t n = a.batch * a.heads * a.lq * a.lk;
    if (n == 0) return JT_OK;
    dropout_factors_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(a, n);
    return launch_status();
  }
  if (r.mode != 0 && r.mode != 1) return JT_INVALID;
  if constexpr (std::is_same<opmath_t<T>, T>::value) {  // float32, float64 (16-bit modes 0 and 1 left above)
    const int D = head_size_for(r.e, r.ev);
    if (D == 0 || !fits<T>(D)) return JT_NO_KERNEL;
    switch (D) {
      case 32: return run_sized<T, 32>(a, (int)r.mode, stream);
      case 64: return run_sized<T, 64>(a, (int)r.mode, stream);
      default:
        if constexpr (sizeof(T) == 4) return run_sized<T, 128>(a, (int)r.mode, stream);
    }
  }
  return JT_NO_KERNEL;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int attention_unguarded(const int64_t* words) {
  attention_plan r(words);
  if (!r.current()) return JT_INVALID;
  switch ((DType)r.dtype) {
    case DType::Float32: return run<float>(r);
    case DType::Float64: return run<double>(r);
    case DType::Float16: return run<Half>(r);
    case DType::BFloat16: return run<BFloat16>(r);
    default: return JT_NO_KERNEL;
  }
}
int jtc_attention(const int64_t* words) { return jt::guarded_status([&] { return attention_unguarded(words); }); }

int jtc_attention_fused(int dtype, int64_t e, int64_t ev) {
  const int D = head_size_for(e, ev);
  if (D == 0) return 0;
  switch ((DType)dtype) {
    case DType::Float32: return fits<float>(D) ? 1 : 0;
    case DType::Float64: return D <= 64 && fits<double>(D) ? 1 : 0;
    case DType::Float16:
    case DType::BFloat16: return attention_tensor_cores_fit(e, ev) ? 1 : 0;
    default: return 0;
  }
}
