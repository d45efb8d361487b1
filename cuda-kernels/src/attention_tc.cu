// Scaled dot-product attention in float16 and bfloat16 on tensor cores, FlashAttention-2 style:
// attention.cu's tiling (a block per 64 query rows walking 64-key tiles with an online softmax; the
// backward a key/value kernel and a query kernel recomputing probabilities from the row log-sum-exp,
// no atomics), with every product of two tiles an mma.sync m16n8k16 of 16-bit operands accumulated
// in float. Each of a block's four warps owns 16 rows of the tile and keeps its scores,
// probabilities and accumulators in registers: a score fragment's accumulator layout is the next
// product's operand layout, so probabilities and score gradients go from float registers to 16-bit
// operands without touching shared memory (FlashAttention-2's register reuse). The key/value
// kernel works in the transposed frame (its warps own 16 keys, the scores are K·Qᵀ), so Pᵀ and dSᵀ
// are operands the same way. Shared memory holds only the 16-bit tiles, rows of D + 8 elements (D:
// the head size rounded up to 32, 64 or 128; the 16 bytes of padding put ldmatrix's eight rows in
// distinct banks). Scale, masks, causality, softmax and dropout are applied in float (logits in
// base 2: one exp2f a probability), element by element, where each register's row and column are
// known; a whole tile with no mask, no dropout and no key after a query skips the checks (the accumulator layout: lane l holds
// rows l / 4 and l / 4 + 8, columns 2 (l % 4) and 2 (l % 4) + 1 of each 8-column block).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "attention_common.cuh"
#include "jt/plans.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

using namespace attn;

constexpr int kWarps = 4, kTcThreads = 32 * kWarps;  // a warp per 16 of a tile's 64 rows
constexpr int kPad = 8;
__host__ __device__ constexpr int tile_ld(int D) { return D + kPad; }
__host__ __device__ constexpr int tile_elems(int D) { return kTile * tile_ld(D); }
// Shared memory: six 16-bit tiles (two held for the whole block, two pairs double-buffered: the
// next tile's copy lands while this one's products run; the forward uses five) and four runs of 64
// floats (the key/value kernel's double-buffered lse and D).
__host__ __device__ constexpr size_t tc_bytes(int D) { return 6 * (size_t)tile_elems(D) * 2 + 4 * kTile * sizeof(float); }

// The element type's pair packing and tensor-core product: c += a · b, a 16 x 16 (row-major), b
// 16 x 8 (column-major), c 16 x 8 in float.
template <typename T> struct Mma;
template <> struct Mma<Half> {
  static __device__ uint32_t pack(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&h);
  }
  static __device__ uint16_t bits(float f) { return __half_as_ushort(__float2half_rn(f)); }
  static __device__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
};
template <> struct Mma<BFloat16> {
  static __device__ uint32_t pack(float lo, float hi) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&h);
  }
  static __device__ uint16_t bits(float f) { return __bfloat16_as_ushort(__float2bfloat16_rn(f)); }
  static __device__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
};

// Four 8 x 8 16-bit matrices from shared memory, lane l naming row l % 8 of matrix l / 8 (trans:
// each transposed as it loads).
__device__ inline void ldsm4(uint32_t (&r)[4], const uint16_t* p) {
  const unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
}
__device__ inline void ldsm4_trans(uint32_t (&r)[4], const uint16_t* p) {
  const unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
}

// The A operand: X's rows r0 to r0 + 15, columns k0 to k0 + 15.
template <int D>
__device__ inline void load_a(uint32_t (&a)[4], const uint16_t* X, int r0, int k0) {
  const int l = threadIdx.x % 32;
  ldsm4(a, X + (r0 + l % 16) * tile_ld(D) + k0 + l / 16 * 8);
}
// The B operands of X·Yᵀ at depth k0 for columns n0 to n0 + 7 (b[0], b[1]) and n0 + 8 to n0 + 15
// (b[2], b[3]): rows n of Y, columns k.
template <int D>
__device__ inline void load_b_of_rows(uint32_t (&b)[4], const uint16_t* Y, int n0, int k0) {
  const int l = threadIdx.x % 32;
  ldsm4(b, Y + (n0 + l / 16 * 8 + l % 8) * tile_ld(D) + k0 + l / 8 % 2 * 8);
}
// The B operands of X·Y at depth k0 for columns n0 to n0 + 7 and n0 + 8 to n0 + 15: rows k of Y, columns n.
template <int D>
__device__ inline void load_b_of_cols(uint32_t (&b)[4], const uint16_t* Y, int k0, int n0) {
  const int l = threadIdx.x % 32;
  ldsm4_trans(b, Y + (k0 + l / 8 % 2 * 8 + l % 8) * tile_ld(D) + n0 + l / 16 * 8);
}

// s = X's rows r0 to r0 + 15 times Yᵀ (Y's 64 rows): 16 x 64 scores over depth D, in eight 8-column fragments.
template <typename T, int D>
__device__ void warp_scores(float (&s)[8][4], const uint16_t* X, int r0, const uint16_t* Y) {
#pragma unroll
  for (int n = 0; n < 8; ++n) s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0;
#pragma unroll
  for (int k0 = 0; k0 < D; k0 += 16) {
    uint32_t a[4];
    load_a<D>(a, X, r0, k0);
#pragma unroll
    for (int n = 0; n < 8; n += 2) {
      uint32_t b[4];
      load_b_of_rows<D>(b, Y, n * 8, k0);
      Mma<T>::mma(s[n], a, b[0], b[1]);
      Mma<T>::mma(s[n + 1], a, b[2], b[3]);
    }
  }
}

// acc += p · Y: p this warp's 16 x 64 probabilities (score fragments in registers, rounded to T as
// the A operand), Y 64 rows of D columns.
template <typename T, int D>
__device__ void warp_product(float (&acc)[D / 8][4], const float (&p)[8][4], const uint16_t* Y) {
#pragma unroll
  for (int kb = 0; kb < 4; ++kb) {
    const uint32_t a[4] = {Mma<T>::pack(p[2 * kb][0], p[2 * kb][1]), Mma<T>::pack(p[2 * kb][2], p[2 * kb][3]),
                           Mma<T>::pack(p[2 * kb + 1][0], p[2 * kb + 1][1]), Mma<T>::pack(p[2 * kb + 1][2], p[2 * kb + 1][3])};
#pragma unroll
    for (int n = 0; n < D / 8; n += 2) {
      uint32_t b[4];
      load_b_of_cols<D>(b, Y, kb * 16, n * 8);
      Mma<T>::mma(acc[n], a, b[0], b[1]);
      Mma<T>::mma(acc[n + 1], a, b[2], b[3]);
    }
  }
}

// Where register e of 8-column fragment n lies in its warp's 16 x 64 tile: row (0 to 15) and column.
__device__ inline int frag_row(int e) { return threadIdx.x % 32 / 4 + 8 * (e / 2); }
__device__ inline int frag_col(int n, int e) { return n * 8 + threadIdx.x % 4 * 2 + e % 2; }

// Scores, maxima and log-sum-exps are kept in base 2 (x·log2 e), so each probability is one exp2f.
constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

// Whether a tile of query rows [i0, i0 + rows) and keys [j0, j0 + cols) needs no check per score:
// whole, no mask, no dropout, and (causal) every key at or before every query. Most tiles are.
template <typename T>
__device__ inline bool plain_tile(const AttnArgs<T>& a, int64_t i0, int rows, int64_t j0, int cols) {
  return rows == kTile && cols == kTile && a.mask_kind == 0 && a.dropout == 0 && !(a.causal && j0 + kTile - 1 > i0);
}

// The tile's dot products s as logits in base 2: scaled on a Plain tile, else through score_of
// (masks, causality, the tile's valid rows and keys). keys_are_rows: the key/value kernel's frame.
template <bool Plain, typename T>
__device__ inline void tile_logits(const AttnArgs<T>& a, float (&s)[8][4], int w0, int64_t b, int64_t h, int64_t i0, int rows, int64_t j0,
                                   int cols, bool keys_are_rows) {
  const float scale2 = a.tscale * kLog2e;
#pragma unroll
  for (int n = 0; n < 8; ++n)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (Plain) {
        s[n][e] *= scale2;
      } else {
        const int r = w0 + frag_row(e), c = frag_col(n, e), query = keys_are_rows ? c : r, key = keys_are_rows ? r : c;
        s[n][e] = score_of(a, s[n][e], b, h, i0 + query, j0 + key, query < rows && key < cols) * kLog2e;
      }
    }
}

template <typename T>
__device__ inline void logits(const AttnArgs<T>& a, bool plain, float (&s)[8][4], int w0, int64_t b, int64_t h, int64_t i0, int rows,
                              int64_t j0, int cols, bool keys_are_rows) {
  if (plain) tile_logits<true>(a, s, w0, b, h, i0, rows, j0, cols, keys_are_rows);
  else tile_logits<false>(a, s, w0, b, h, i0, rows, j0, cols, keys_are_rows);
}

// Asynchronous copies (sm_80's cp.async): 16 bytes from global to shared memory, of which the
// first src_bytes are read and the rest zero-filled; a group of them committed; waiting until at
// most N groups are in flight.
__device__ inline void copy_async(uint16_t* dst, const uint16_t* src, int src_bytes) {
  const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ inline void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ inline void wait_copies() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// Rows [0, 64) and columns [0, D) of a tile: src's rows (width elements apart) where r < rows and
// c < width, 0 elsewhere (padding must be finite: it meets zero probabilities). When every row
// starts on 16 bytes, as asynchronous 16-byte copies of the caller's current group (waited for with
// wait_copies and a barrier); else element by element, at once.
template <int D>
__device__ void load_tile(uint16_t* dst, const uint16_t* src, int rows, int width) {
  constexpr int ld = tile_ld(D);
  if (width % 8 == 0 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
    constexpr int packs = D / 8;
#pragma unroll
    for (int idx = threadIdx.x; idx < kTile * packs; idx += kTcThreads) {
      const int r = idx / packs, c = idx % packs * 8;
      const bool in = r < rows && c < width;
      copy_async(dst + r * ld + c, in ? src + (int64_t)r * width + c : src, in ? 16 : 0);
    }
    return;
  }
  for (int idx = threadIdx.x; idx < kTile * D; idx += kTcThreads) {
    const int r = idx / D, c = idx % D;
    dst[r * ld + c] = (r < rows && c < width) ? src[(int64_t)r * width + c] : (uint16_t)0;
  }
}

template <typename T>
__device__ inline const uint16_t* raw(const T* p) { return reinterpret_cast<const uint16_t*>(p); }

// Writes acc (this warp's rows r0 to r0 + 15 of a [rows][width] result at dst) times factor, as T.
template <typename T, int D>
__device__ void write_rows(T* dst, const float (&acc)[D / 8][4], int r0, int rows, int width, float factor) {
  uint16_t* out = reinterpret_cast<uint16_t*>(dst);
#pragma unroll
  for (int n = 0; n < D / 8; ++n)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int r = r0 + frag_row(e), c = frag_col(n, e);
      if (r < rows && c < width) out[(int64_t)r * width + c] = Mma<T>::bits(acc[n][e] * factor);
    }
}

template <typename T, int D>
__global__ void __launch_bounds__(kTcThreads) forward_kernel(const __grid_constant__ AttnArgs<T> a) {
  extern __shared__ __align__(128) unsigned char smem[];
  uint16_t* Q = reinterpret_cast<uint16_t*>(smem);
  uint16_t* KV = Q + tile_elems(D);  // K and V of tile t at KV + 2 (t % 2) tiles
  const int w0 = threadIdx.x / 32 * 16;  // this warp's first row
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  float o[D / 8][4] = {}, m[2] = {ninf<float>(), ninf<float>()}, l[2] = {0, 0};
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;  // later keys are masked for every row
  const int tiles = (int)((end + kTile - 1) / kTile);
  const int64_t kv_rows = (b * a.kv_heads + hk) * a.lk;
  auto load_keys = [&](int t) {
    const int64_t j0 = (int64_t)t * kTile;
    const int cols = (int)imin(kTile, a.lk - j0);
    uint16_t* K = KV + 2 * (t % 2) * tile_elems(D);
    load_tile<D>(K, raw(a.k) + (kv_rows + j0) * a.e, cols, (int)a.e);
    load_tile<D>(K + tile_elems(D), raw(a.v) + (kv_rows + j0) * a.ev, cols, (int)a.ev);
  };
  load_tile<D>(Q, raw(a.q) + (bh * a.lq + i0) * a.e, rows, (int)a.e);
  if (tiles > 0) load_keys(0);
  commit_copies();
  for (int t = 0; t < tiles; ++t) {
    const int64_t j0 = (int64_t)t * kTile;
    const int cols = (int)imin(kTile, a.lk - j0);
    if (t + 1 < tiles) load_keys(t + 1);  // into the buffer tile t - 1 used
    commit_copies();
    wait_copies<1>();  // every group but the newest: tile t's
    __syncthreads();
    const uint16_t *K = KV + 2 * (t % 2) * tile_elems(D), *V = K + tile_elems(D);
    float s[8][4];
    warp_scores<T, D>(s, Q, w0, K);
    const bool plain = plain_tile(a, i0, rows, j0, cols);
    logits(a, plain, s, w0, b, h, i0, rows, j0, cols, false);
    float top[2] = {ninf<float>(), ninf<float>()};
#pragma unroll
    for (int n = 0; n < 8; ++n)
#pragma unroll
      for (int e = 0; e < 4; ++e) top[e / 2] = nan_max(top[e / 2], s[n][e]);
    // each row's online-softmax step: its four lanes (a quad) hold its 64 scores
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      float mx = top[half];
      mx = nan_max(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = nan_max(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float mnew = nan_max(mx, m[half]);
      const bool any = mnew != ninf<float>();  // false: every key so far masked, nothing changes
      float sum = 0;
#pragma unroll
      for (int n = 0; n < 8; ++n)
#pragma unroll
        for (int e = 2 * half; e < 2 * half + 2; ++e) {
          s[n][e] = any ? exp2f(s[n][e] - mnew) : 0.0f;
          sum += s[n][e];
        }
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      if (!any) continue;
      const float corr = exp2f(m[half] - mnew);
      l[half] = l[half] * corr + sum;
      m[half] = mnew;
#pragma unroll
      for (int n = 0; n < D / 8; ++n) o[n][2 * half] *= corr, o[n][2 * half + 1] *= corr;
    }
    if (a.dropout > 0) {
#pragma unroll
      for (int n = 0; n < 8; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int r = w0 + frag_row(e), c = frag_col(n, e);
          if (r < rows && c < cols && s[n][e] != 0) s[n][e] *= dropout_factor(a, a.score_index(b, h, i0 + r, j0 + c));
        }
    }
    warp_product<T, D>(o, s, V);
    __syncthreads();  // tile t's buffer is read: tile t + 2 may land there
  }
  wait_copies<0>();  // with no tiles, Q's copy (nothing reads it)
  uint16_t* out = reinterpret_cast<uint16_t*>(a.out) + (bh * a.lq + i0) * a.ev;
#pragma unroll
  for (int n = 0; n < D / 8; ++n)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int r = w0 + frag_row(e), c = frag_col(n, e);
      const float inv = l[e / 2] == 0 ? 0.0f : 1.0f / l[e / 2];  // 0: every key masked; NaN stays NaN
      if (r < rows && c < a.ev) out[(int64_t)r * a.ev + c] = Mma<T>::bits(o[n][e] * inv);
    }
  if (threadIdx.x % 4 == 0) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = w0 + frag_row(2 * half);
      if (r < rows) a.lse[bh * a.lq + i0 + r] = l[half] == 0 ? ninf<float>() : (m[half] + log2f(l[half])) * kLn2;
    }
  }
}

// A score's dropped probability (into p) and gradient (into dp), from its logit in base 2, dP =
// dO·v, and its query row's lse (base 2) and D; z the dropout factor (1 without dropout).
__device__ inline void score_gradient(float& p_then_pd, float& dp_then_ds, float lse2, float dsum, float z) {
  const float p = lse2 == ninf<float>() ? 0.0f : exp2f(p_then_pd - lse2);
  dp_then_ds = p * (dp_then_ds * z - dsum);
  p_then_pd = p * z;
}

// The key and value gradients of 64 keys of (b, kv head): every query tile of the group's heads that
// sees them. Warp w owns keys 16 w to 16 w + 15; its scores are Sᵀ = K·Qᵀ (rows keys, columns queries).
template <typename T, int D>
__global__ void __launch_bounds__(kTcThreads) key_value_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  extern __shared__ __align__(128) unsigned char smem[];
  uint16_t* K = reinterpret_cast<uint16_t*>(smem);
  uint16_t *V = K + tile_elems(D), *QdO = V + tile_elems(D);  // Q and dO of step t at QdO + 2 (t % 2) tiles
  float* rowvals = reinterpret_cast<float*>(QdO + 4 * tile_elems(D));  // lse and D of step t at rowvals + 2 (t % 2) runs
  const int w0 = threadIdx.x / 32 * 16;
  const int64_t kblocks = (a.lk + kTile - 1) / kTile, bhk = blockIdx.x / kblocks, j0 = (blockIdx.x % kblocks) * kTile;
  const int64_t b = bhk / a.kv_heads, hk = bhk % a.kv_heads, G = a.group();
  const int cols = (int)imin(kTile, a.lk - j0);  // keys
  // the steps: each query tile of each head of the group, earlier queries skipped when causal (they see none of these keys)
  const int64_t first = a.causal ? j0 : 0, per_head = first < a.lq ? (a.lq - first + kTile - 1) / kTile : 0;
  const int64_t steps = G * per_head;
  auto load_queries = [&](int64_t t) {
    const int64_t h = hk * G + t / per_head, i0 = first + t % per_head * kTile;
    const int rows = (int)imin(kTile, a.lq - i0);
    const int64_t row0 = (b * a.heads + h) * a.lq + i0;
    uint16_t* Q = QdO + 2 * (t % 2) * tile_elems(D);
    load_tile<D>(Q, raw(a.q) + row0 * a.e, rows, (int)a.e);
    load_tile<D>(Q + tile_elems(D), raw(a.grad_out) + row0 * a.ev, rows, (int)a.ev);
    if (threadIdx.x < kTile) {
      const int r = threadIdx.x;
      float* lse = rowvals + 2 * (t % 2) * kTile;
      lse[r] = r < rows ? a.lse[row0 + r] * kLog2e : ninf<float>();  // base 2
      lse[kTile + r] = r < rows ? a.dsum[row0 + r] : 0.0f;
    }
  };
  load_tile<D>(K, raw(a.k) + (bhk * a.lk + j0) * a.e, cols, (int)a.e);
  load_tile<D>(V, raw(a.v) + (bhk * a.lk + j0) * a.ev, cols, (int)a.ev);
  if (steps > 0) load_queries(0);
  commit_copies();
  float dk[D / 8][4] = {}, dv[D / 8][4] = {};
  for (int64_t t = 0; t < steps; ++t) {
    {
      const int64_t h = hk * G + t / per_head, i0 = first + t % per_head * kTile;
      const int rows = (int)imin(kTile, a.lq - i0);  // queries
      if (t + 1 < steps) load_queries(t + 1);  // into the buffers step t - 1 used
      commit_copies();
      wait_copies<1>();  // every group but the newest: step t's
      __syncthreads();
      const uint16_t *Q = QdO + 2 * (t % 2) * tile_elems(D), *dO = Q + tile_elems(D);
      const float *lse = rowvals + 2 * (t % 2) * kTile, *dsum = lse + kTile;
      float s[8][4], dp[8][4];
      warp_scores<T, D>(s, K, w0, Q);    // Sᵀ
      warp_scores<T, D>(dp, V, w0, dO);  // dPᵀ
      const bool plain = plain_tile(a, i0, rows, j0, cols);
      logits(a, plain, s, w0, b, h, i0, rows, j0, cols, true);
      if (a.dropout > 0) {
#pragma unroll
        for (int n = 0; n < 8; ++n)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int key = w0 + frag_row(e), query = frag_col(n, e);
            const float z = key < cols && query < rows ? dropout_factor(a, a.score_index(b, h, i0 + query, j0 + key)) : 1.0f;
            score_gradient(s[n][e], dp[n][e], lse[query], dsum[query], z);
          }
      } else {
#pragma unroll
        for (int n = 0; n < 8; ++n)
#pragma unroll
          for (int e = 0; e < 4; ++e) score_gradient(s[n][e], dp[n][e], lse[frag_col(n, e)], dsum[frag_col(n, e)], 1.0f);
      }
      warp_product<T, D>(dv, s, dO);  // dV += PDᵀ · dO
      warp_product<T, D>(dk, dp, Q);  // dK += dSᵀ · Q
      __syncthreads();  // step t's buffers are read: step t + 2 may land there
    }
  }
  wait_copies<0>();  // with no steps, K's and V's copies (nothing reads them)
  if (a.grad_k) write_rows<T, D>(a.grad_k + (bhk * a.lk + j0) * a.e, dk, w0, cols, (int)a.e, a.tscale);
  if (a.grad_v) write_rows<T, D>(a.grad_v + (bhk * a.lk + j0) * a.ev, dv, w0, cols, (int)a.ev, 1.0f);
}

// The query gradient of 64 query rows of (b, h): dQ = dS · K over every key tile the rows see.
template <typename T, int D>
__global__ void __launch_bounds__(kTcThreads) query_grad_kernel(const __grid_constant__ AttnArgs<T> a) {
  extern __shared__ __align__(128) unsigned char smem[];
  uint16_t* Q = reinterpret_cast<uint16_t*>(smem);
  uint16_t *dO = Q + tile_elems(D), *KV = dO + tile_elems(D);  // K and V of tile t at KV + 2 (t % 2) tiles
  const int w0 = threadIdx.x / 32 * 16;
  const int64_t qblocks = (a.lq + kTile - 1) / kTile, bh = blockIdx.x / qblocks, i0 = (blockIdx.x % qblocks) * kTile;
  const int64_t b = bh / a.heads, h = bh % a.heads, hk = h / a.group();
  const int rows = (int)imin(kTile, a.lq - i0);
  const int64_t row0 = bh * a.lq + i0;
  const int64_t end = a.causal ? imin(a.lk, i0 + rows) : a.lk;
  const int tiles = (int)((end + kTile - 1) / kTile);
  const int64_t kv_rows = (b * a.kv_heads + hk) * a.lk;
  auto load_keys = [&](int t) {
    const int64_t j0 = (int64_t)t * kTile;
    const int cols = (int)imin(kTile, a.lk - j0);
    uint16_t* K = KV + 2 * (t % 2) * tile_elems(D);
    load_tile<D>(K, raw(a.k) + (kv_rows + j0) * a.e, cols, (int)a.e);
    load_tile<D>(K + tile_elems(D), raw(a.v) + (kv_rows + j0) * a.ev, cols, (int)a.ev);
  };
  load_tile<D>(Q, raw(a.q) + row0 * a.e, rows, (int)a.e);
  load_tile<D>(dO, raw(a.grad_out) + row0 * a.ev, rows, (int)a.ev);
  if (tiles > 0) load_keys(0);
  commit_copies();
  float lse[2], dsum[2];  // of this thread's two rows
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int r = w0 + frag_row(2 * half);
    lse[half] = r < rows ? a.lse[row0 + r] * kLog2e : ninf<float>();  // base 2
    dsum[half] = r < rows ? a.dsum[row0 + r] : 0.0f;
  }
  float dq[D / 8][4] = {};
  for (int t = 0; t < tiles; ++t) {
    const int64_t j0 = (int64_t)t * kTile;
    const int cols = (int)imin(kTile, a.lk - j0);
    if (t + 1 < tiles) load_keys(t + 1);  // into the buffer tile t - 1 used
    commit_copies();
    wait_copies<1>();  // every group but the newest: tile t's
    __syncthreads();
    const uint16_t *K = KV + 2 * (t % 2) * tile_elems(D), *V = K + tile_elems(D);
    float s[8][4], dp[8][4];
    warp_scores<T, D>(s, Q, w0, K);
    warp_scores<T, D>(dp, dO, w0, V);
    const bool plain = plain_tile(a, i0, rows, j0, cols);
    logits(a, plain, s, w0, b, h, i0, rows, j0, cols, false);
    if (a.dropout > 0) {
#pragma unroll
      for (int n = 0; n < 8; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int r = w0 + frag_row(e), c = frag_col(n, e);
          const float z = r < rows && c < cols ? dropout_factor(a, a.score_index(b, h, i0 + r, j0 + c)) : 1.0f;
          score_gradient(s[n][e], dp[n][e], lse[e / 2], dsum[e / 2], z);
        }
    } else {
#pragma unroll
      for (int n = 0; n < 8; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) score_gradient(s[n][e], dp[n][e], lse[e / 2], dsum[e / 2], 1.0f);
    }
    warp_product<T, D>(dq, dp, K);
    __syncthreads();  // tile t's buffer is read: tile t + 2 may land there
  }
  wait_copies<0>();  // with no tiles, Q's and dO's copies (nothing reads them)
  write_rows<T, D>(a.grad_q + row0 * a.e, dq, w0, rows, (int)a.e, a.tscale);
}

template <typename T, int D>
int run_sized(const AttnArgs<T>& a, int mode, cudaStream_t stream) {
  return launch_attention<T>(a, mode, stream, {forward_kernel<T, D>, tc_bytes(D), kTcThreads}, {key_value_grad_kernel<T, D>, tc_bytes(D), kTcThreads},
                             {query_grad_kernel<T, D>, tc_bytes(D), kTcThreads});
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

template <typename T>
int attention_tensor_cores(const attention_plan& r) {
  return run<T>(r);
}
template int attention_tensor_cores<Half>(const attention_plan& r);
template int attention_tensor_cores<BFloat16>(const attention_plan& r);

bool attention_tensor_cores_fit(int64_t e, int64_t ev) {
  const int D = head_size_for(e, ev);
  return D != 0 && tc_bytes(D) <= shared_optin();
}

}  // namespace cuda
}  // namespace jt
