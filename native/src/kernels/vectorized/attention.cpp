// Scaled dot-product attention as fused kernels (plans.h's attention plan), flash-attention style:
// the L x S score matrix is never stored. The forward walks each block of query rows against
// blocks of keys with an online softmax (running row maximum m and sum l, the output rescaled as
// m grows) and saves only the output and the row log-sum-exp lse = m + log l. The backward
// recomputes each block's probabilities from lse and accumulates the three gradients; one task
// owns a (batch, key/value head) pair, so the key and value gradients of a block, shared by the
// query heads of its group, need no atomics. Block products go through one register-tiled
// micro-kernel (gemm_tile) over the capability's vector width; FMA contraction is on for this
// file (cmake), so capabilities agree to rounding, not to the bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "jt/attention.h"
#include "jt/jt.h"
#include "jt/philox.h"
#include "jt/plans.h"
#include "kernels/fast_exp.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace {

constexpr int kBlockQ = 32;  // query rows per block
constexpr int kBlockK = 64;  // keys per block: a whole number of every capability's vectors
constexpr int kLanes = 16;   // partial maxima and sums of a row of scores

// C[m x n] (+)= A[m x kc] . B[kc x n]; A read as scalars (rows lda apart), B and C as rows of n
// elements (a multiple of one vector) ldb and ldc apart. Four rows by Cols vectors at a time: the
// accumulators stay in registers while kc runs; two vectors wide, then one for an odd last vector.
template <typename T, int Cols>
inline void gemm_columns(int m, int c, int kc, const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc, bool accumulate) {
  using V = typename Vec<T>::type;
  constexpr int W = Vec<T>::lanes;
  int r = 0;
  for (; r + 4 <= m; r += 4) {
    V acc[4][Cols];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < Cols; ++j) acc[i][j] = accumulate ? load(C + (r + i) * ldc + c + j * W) : V{};
    const T* a = A + r * lda;
    for (int q = 0; q < kc; ++q) {
      V bv[Cols];
      for (int j = 0; j < Cols; ++j) bv[j] = load(B + q * ldb + c + j * W);
      for (int i = 0; i < 4; ++i) {
        const T sc = a[i * lda + q];
        for (int j = 0; j < Cols; ++j) acc[i][j] += sc * bv[j];
      }
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < Cols; ++j) store(C + (r + i) * ldc + c + j * W, acc[i][j]);
  }
  for (; r < m; ++r) {
    V acc[Cols];
    for (int j = 0; j < Cols; ++j) acc[j] = accumulate ? load(C + r * ldc + c + j * W) : V{};
    for (int q = 0; q < kc; ++q) {
      const T sc = A[r * lda + q];
      for (int j = 0; j < Cols; ++j) acc[j] += sc * load(B + q * ldb + c + j * W);
    }
    for (int j = 0; j < Cols; ++j) store(C + r * ldc + c + j * W, acc[j]);
  }
}

template <typename T>
void gemm_tile(int m, int n, int kc, const T* A, int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc, bool accumulate) {
  constexpr int W = Vec<T>::lanes;
  int c = 0;
  for (; c + 2 * W <= n; c += 2 * W) gemm_columns<T, 2>(m, c, kc, A, lda, B, ldb, C, ldc, accumulate);
  if (c < n) gemm_columns<T, 1>(m, c, kc, A, lda, B, ldb, C, ldc, accumulate);
}

// A row width rounded up to whole vectors (head size 16 in float32 stays 16 under AVX-512).
template <typename T>
constexpr int64_t padded(int64_t n) {
  constexpr int64_t step = Vec<T>::lanes;
  return (n + step - 1) / step * step;
}

// The larger of a and b, NaN if either is (a comparison alone drops NaN).
template <typename T>
inline T nan_max(T a, T b) {
  return (a > b || a != a) ? a : b;
}

inline float exp_shifted(float x) { return exp_nonpositive(x); }  // x <= 0 here
inline double exp_shifted(double x) { return std::exp(x); }

template <typename T>
struct Attention : AttentionOperands<T> {
  using P = AttentionOperands<T>;  // a dependent base: its members named once here for the kernels below
  using P::batch, P::heads, P::kv_heads, P::lq, P::lk, P::e, P::ev, P::causal, P::mask_kind, P::ms, P::dropout, P::seed, P::counter;
  using P::group, P::score_index, P::tscale, P::keep, P::mask, P::q, P::k, P::v, P::grad_out, P::out, P::lse;
  using P::grad_q, P::grad_k, P::grad_v;
  int64_t ep, evp;  // e and ev rounded up to whole vectors

  const T* q_row(int64_t b, int64_t h, int64_t i) const { return q + ((b * heads + h) * lq + i) * e; }
  int64_t kv_row(int64_t b, int64_t hk, int64_t j) const { return (b * kv_heads + hk) * lk + j; }

  // Each key's dropout factor for query row i of (b, h), keys [j0, j0 + n): keep or 0 (jt/attention.h's draw).
  void dropout_factors(int64_t b, int64_t h, int64_t i, int64_t j0, int n, T* z) const {
    const uint64_t first = score_index(b, h, i, j0);
    uint32_t w[4];
    uint64_t block = ~(uint64_t)0;
    for (int c = 0; c < n; ++c) {
      const uint64_t el = first + (uint64_t)c;
      if (attention_draw_block(el) != block) {
        block = attention_draw_block(el);
        philox_block(seed, counter + block, w);
      }
      z[c] = attention_kept(w, el, dropout) ? keep : T(0);
    }
  }

  // The scores of query rows [i0, i0 + rows) of (b, h) against keys [j0, j0 + cols): s[r][c] =
  // scale * q_i . k_j (+ the additive mask), -inf where masked, causal (j > i) or past cols.
  void scores(int64_t b, int64_t h, int64_t i0, int rows, int64_t j0, int cols, const T* kT, T* s) const {
    gemm_tile<T>(rows, kBlockK, (int)e, q_row(b, h, i0), e, kT, kBlockK, s, kBlockK, false);
    const T ninf = -std::numeric_limits<T>::infinity();
    for (int r = 0; r < rows; ++r) {
      T* sr = s + r * kBlockK;
      const int64_t i = i0 + r;
      for (int c = 0; c < kBlockK; ++c) sr[c] *= tscale;  // (nn.Attention passes scale 1 when e = 0: the scores are exactly 0)
      int limit = cols;
      if (causal) limit = (int)std::max<int64_t>(0, std::min<int64_t>(cols, i - j0 + 1));
      for (int c = limit; c < kBlockK; ++c) sr[c] = ninf;
      if (mask_kind == 0) continue;
      const int64_t base = b * ms[0] + h * ms[1] + i * ms[2] + j0 * ms[3];
      if (mask_kind == 1) {
        const bool* mr = static_cast<const bool*>(mask) + base;
        for (int c = 0; c < limit; ++c) sr[c] = mr[c * ms[3]] ? sr[c] : ninf;
      } else {
        const T* mr = static_cast<const T*>(mask) + base;
        for (int c = 0; c < limit; ++c) sr[c] += mr[c * ms[3]];
      }
    }
  }

  // Keys [j0, j0 + cols) of kv head (b, hk): kT [e][kBlockK] (transposed, for scores and dP) and,
  // when rows is given, as rows [kBlockK][width] (for products over the keys).
  static void transpose_block(const T* src, int64_t width, int cols, T* dst) {
    for (int c = 0; c < cols; ++c)
      for (int64_t d = 0; d < width; ++d) dst[d * kBlockK + c] = src[c * width + d];
  }
  static void rows_block(const T* src, int64_t width, int64_t padded_width, int cols, T* dst) {
    for (int c = 0; c < cols; ++c) std::memcpy(dst + c * padded_width, src + c * width, sizeof(T) * width);
  }

  void forward_block(int64_t b, int64_t h, int64_t i0, std::vector<T>& buf) const {
    const int rows = (int)std::min<int64_t>(kBlockQ, lq - i0);
    T* kT = buf.data();
    T* vb = kT + e * kBlockK;
    T* s = vb + kBlockK * evp;
    T* o = s + kBlockQ * kBlockK;
    T* z = o + kBlockQ * evp;
    T* m = z + kBlockK;
    T* l = m + kBlockQ;
    std::fill(vb, s, T(0));  // padding columns stay 0
    std::fill(o, z, T(0));
    const T ninf = -std::numeric_limits<T>::infinity();
    std::fill(m, m + rows, ninf);
    std::fill(l, l + rows, T(0));
    const int64_t hk = h / group();
    const int64_t end = causal ? std::min<int64_t>(lk, i0 + rows) : lk;  // later keys are masked for every row
    for (int64_t j0 = 0; j0 < end; j0 += kBlockK) {
      const int cols = (int)std::min<int64_t>(kBlockK, lk - j0);
      transpose_block(k + kv_row(b, hk, j0) * e, e, cols, kT);
      rows_block(v + kv_row(b, hk, j0) * ev, ev, evp, cols, vb);
      if (cols < kBlockK) std::fill(vb + cols * evp, vb + kBlockK * evp, T(0));
      scores(b, h, i0, rows, j0, cols, kT, s);
      for (int r = 0; r < rows; ++r) {
        T* sr = s + r * kBlockK;
        // Maxima and sums kept in kLanes partial lanes, so that both loops vectorize.
        // NaN wins every maximum (a NaN score makes the row NaN, as PyTorch's softmax does)
        T lanes[kLanes];
        for (int c = 0; c < kLanes; ++c) lanes[c] = sr[c];
        for (int c0 = kLanes; c0 < kBlockK; c0 += kLanes)
          for (int c = 0; c < kLanes; ++c) lanes[c] = nan_max(sr[c0 + c], lanes[c]);
        T top = ninf;
        for (int c = 0; c < kLanes; ++c) top = nan_max(lanes[c], top);
        const T mnew = nan_max(top, m[r]);
        if (mnew == ninf) {  // every key so far masked
          std::fill(sr, sr + kBlockK, T(0));
          continue;
        }
        const T corr = exp_shifted(m[r] - mnew);
        for (int c = 0; c < kLanes; ++c) lanes[c] = 0;
        for (int c0 = 0; c0 < kBlockK; c0 += kLanes) {
          for (int c = 0; c < kLanes; ++c) {
            sr[c0 + c] = exp_shifted(sr[c0 + c] - mnew);
            lanes[c] += sr[c0 + c];
          }
        }
        T sum = 0;
        for (int c = 0; c < kLanes; ++c) sum += lanes[c];
        l[r] = l[r] * corr + sum;
        m[r] = mnew;
        if (corr != T(1)) {
          T* orow = o + r * evp;
          for (int64_t d = 0; d < evp; ++d) orow[d] *= corr;
        }
        if (dropout > 0) {
          dropout_factors(b, h, i0 + r, j0, cols, z);
          for (int c = 0; c < cols; ++c) sr[c] *= z[c];
        }
      }
      gemm_tile<T>(rows, (int)evp, kBlockK, s, kBlockK, vb, evp, o, evp, true);
    }
    for (int r = 0; r < rows; ++r) {
      const int64_t row = (b * heads + h) * lq + i0 + r;
      T* dst = out + row * ev;
      const T inv = l[r] == 0 ? T(0) : T(1) / l[r];  // 0: every key masked; NaN stays NaN
      for (int64_t d = 0; d < ev; ++d) dst[d] = o[r * evp + d] * inv;
      lse[row] = l[r] == 0 ? ninf : m[r] + std::log(l[r]);
    }
  }

  size_t forward_buffer() const { return (size_t)(e * kBlockK + kBlockK * evp + kBlockQ * kBlockK + kBlockQ * evp + kBlockK + 2 * kBlockQ); }

  void forward() const {
    const int64_t qblocks = (lq + kBlockQ - 1) / kBlockQ, tasks = batch * heads * qblocks;
    parallel_for(0, tasks, 1, [&](int64_t t0, int64_t t1) {
      std::vector<T> buf(forward_buffer());
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t bh = t / qblocks;
        forward_block(bh / heads, bh % heads, (t % qblocks) * kBlockQ, buf);
      }
    });
  }

  // The gradients of one (batch, kv head): its key blocks in turn, each against every query block
  // of the group's heads that sees it; dq accumulates over the key blocks in a [group][lq][ep] buffer.
  void backward_pair(int64_t b, int64_t hk) const {
    const int64_t G = group();
    std::vector<T> dq((size_t)(G * lq * ep), T(0)), dsum((size_t)(G * lq));
    std::vector<T> kT((size_t)(e * kBlockK)), vT((size_t)(ev * kBlockK)), kb((size_t)(kBlockK * ep), T(0));
    std::vector<T> dk((size_t)(kBlockK * ep)), dv((size_t)(kBlockK * evp));
    std::vector<T> qp((size_t)(kBlockQ * ep), T(0)), gp((size_t)(kBlockQ * evp), T(0));
    std::vector<T> p((size_t)(kBlockQ * kBlockK)), dp((size_t)(kBlockQ * kBlockK)), z((size_t)kBlockK);
    std::vector<T> pt((size_t)(kBlockK * kBlockQ)), dst((size_t)(kBlockK * kBlockQ));
    for (int64_t g = 0; g < G; ++g) {  // D_i = dO_i . O_i (= the sum over keys of P dP)
      const int64_t h = hk * G + g;
      for (int64_t i = 0; i < lq; ++i) {
        const int64_t row = (b * heads + h) * lq + i;
        T acc = 0;
        for (int64_t d = 0; d < ev; ++d) acc += grad_out[row * ev + d] * out[row * ev + d];
        dsum[g * lq + i] = acc;
      }
    }
    const T ninf = -std::numeric_limits<T>::infinity();
    for (int64_t j0 = 0; j0 < lk; j0 += kBlockK) {
      const int cols = (int)std::min<int64_t>(kBlockK, lk - j0);
      const T* kblock = k + kv_row(b, hk, j0) * e;
      const T* vblock = v + kv_row(b, hk, j0) * ev;
      transpose_block(kblock, e, cols, kT.data());
      transpose_block(vblock, ev, cols, vT.data());
      rows_block(kblock, e, ep, cols, kb.data());
      if (cols < kBlockK) std::fill(kb.begin() + cols * ep, kb.end(), T(0));
      std::fill(dk.begin(), dk.end(), T(0));
      std::fill(dv.begin(), dv.end(), T(0));
      for (int64_t g = 0; g < G; ++g) {
        const int64_t h = hk * G + g;
        for (int64_t i0 = causal ? j0 / kBlockQ * kBlockQ : 0; i0 < lq; i0 += kBlockQ) {
          const int rows = (int)std::min<int64_t>(kBlockQ, lq - i0);
          const int64_t row0 = (b * heads + h) * lq + i0;
          rows_block(q + row0 * e, e, ep, rows, qp.data());
          rows_block(grad_out + row0 * ev, ev, evp, rows, gp.data());
          scores(b, h, i0, rows, j0, cols, kT.data(), p.data());
          // dP = dO . V^T (rows x keys)
          gemm_tile<T>(rows, kBlockK, (int)ev, gp.data(), evp, vT.data(), kBlockK, dp.data(), kBlockK, false);
          for (int r = 0; r < rows; ++r) {
            T* pr = p.data() + r * kBlockK;
            T* dpr = dp.data() + r * kBlockK;
            const T l = lse[row0 + r], dd = dsum[g * lq + i0 + r];
            if (l == ninf) {
              std::fill(pr, pr + kBlockK, T(0));
            } else {
              for (int c = 0; c < kBlockK; ++c) pr[c] = exp_shifted(pr[c] - l);
            }
            if (dropout > 0) {
              std::fill(z.begin(), z.end(), T(0));
              dropout_factors(b, h, i0 + r, j0, cols, z.data());
              for (int c = 0; c < kBlockK; ++c) {
                const T pd = pr[c] * z[c];
                dpr[c] = pr[c] * (dpr[c] * z[c] - dd);  // dS
                pt[c * kBlockQ + r] = pd;
              }
            } else {
              for (int c = 0; c < kBlockK; ++c) {
                dpr[c] = pr[c] * (dpr[c] - dd);
                pt[c * kBlockQ + r] = pr[c];
              }
            }
            for (int c = 0; c < kBlockK; ++c) dst[c * kBlockQ + r] = dpr[c];
          }
          // dV += Pd^T . dO, dK += dS^T . Q (scaled at the end), dQ += dS . K (scaled at the end)
          gemm_tile<T>(kBlockK, (int)evp, rows, pt.data(), kBlockQ, gp.data(), evp, dv.data(), evp, true);
          gemm_tile<T>(kBlockK, (int)ep, rows, dst.data(), kBlockQ, qp.data(), ep, dk.data(), ep, true);
          gemm_tile<T>(rows, (int)ep, kBlockK, dp.data(), kBlockK, kb.data(), ep, dq.data() + (g * lq + i0) * ep, ep, true);
        }
      }
      for (int c = 0; c < cols; ++c) {
        const int64_t row = kv_row(b, hk, j0 + c);
        if (grad_k) for (int64_t d = 0; d < e; ++d) grad_k[row * e + d] = dk[c * ep + d] * tscale;
        if (grad_v) for (int64_t d = 0; d < ev; ++d) grad_v[row * ev + d] = dv[c * evp + d];
      }
    }
    if (grad_q) {
      for (int64_t g = 0; g < G; ++g) {
        const int64_t h = hk * G + g;
        for (int64_t i = 0; i < lq; ++i) {
          T* dst_row = grad_q + ((b * heads + h) * lq + i) * e;
          for (int64_t d = 0; d < e; ++d) dst_row[d] = dq[(g * lq + i) * ep + d] * tscale;
        }
      }
    }
  }

  void backward() const {
    parallel_for(0, batch * kv_heads, 1, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) backward_pair(t / kv_heads, t % kv_heads);
    });
  }

  // The dropout factors themselves, [batch, heads, lq, lk] in out (for the differentiable backward).
  void dropout_mask() const {
    parallel_for(0, batch * heads * lq, 1, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t bh = r / lq, i = r % lq;
        for (int64_t j0 = 0; j0 < lk; j0 += kBlockK) {
          dropout_factors(bh / heads, bh % heads, i, j0, (int)std::min<int64_t>(kBlockK, lk - j0), out + r * lk + j0);
        }
      }
    });
  }
};

template <typename T>
int run(const attention_plan& r) {
  Attention<T> a;
  if (!a.read_operands(r)) return JT_INVALID;
  a.ep = padded<T>(a.e), a.evp = padded<T>(a.ev);
  switch (r.mode) {
    case 0: a.forward(); return JT_OK;
    case 1: a.backward(); return JT_OK;
    case 2: a.dropout_mask(); return JT_OK;
    default: return JT_INVALID;
  }
}

}  // namespace

int attention_run(const attention_plan& r) {
  switch ((DType)r.dtype) {
    case DType::Float32: return run<float>(r);
    case DType::Float64: return run<double>(r);
    default: return JT_NO_KERNEL;
  }
}

JT_CPU_CAP_END
