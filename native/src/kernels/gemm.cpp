// C = alpha * A @ B + beta * C over broadcast batches. float32/float64 go to the BLAS registered
// at run time (OpenBLAS from its Java presets) with transposed operands passed as flags, float16
// and bfloat16 to its float32 product through widened copies; every other dtype, or a machine
// without BLAS, uses the blocked loops below.
#include "kernels/gemm.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <vector>

#include "allocator/scratch.h"
#include "jt/functors.h"
#include "parallel.h"

namespace jt {
namespace {

enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
using SetThreadsFn = void (*)(int);

std::atomic<SgemmFn> g_sgemm{nullptr};
std::atomic<DgemmFn> g_dgemm{nullptr};

// Offsets (elements) of batch b in A, B and C.
void batch_offsets(const GemmPlan& p, int64_t b, int64_t& oa, int64_t& ob, int64_t& oc) {
  oa = ob = oc = 0;
  for (int d = p.batch_ndim - 1; d >= 0; --d) {
    int64_t i = b % p.batch_sizes[d];
    b /= p.batch_sizes[d];
    oa += i * p.a_batch[d];
    ob += i * p.b_batch[d];
    oc += i * p.c_batch[d];
  }
}

int64_t batch_count(const GemmPlan& p) {
  int64_t n = 1;
  for (int d = 0; d < p.batch_ndim; ++d) n *= p.batch_sizes[d];
  return n;
}

// A BLAS operand: row-major with unit column stride (no transpose) or unit row stride (transpose).
bool blas_layout(int64_t row, int64_t col, int64_t rows, int64_t cols, int& trans, int& ld) {
  if (col == 1 && row >= std::max<int64_t>(1, cols) && row <= INT32_MAX) { trans = kNoTrans; ld = (int)row; return true; }
  if (row == 1 && col >= std::max<int64_t>(1, rows) && col <= INT32_MAX) { trans = kTrans; ld = (int)col; return true; }
  if (rows == 1 && col == 1) { trans = kNoTrans; ld = (int)std::max<int64_t>(1, cols); return true; }
  if (cols == 1 && row == 1) { trans = kTrans; ld = (int)std::max<int64_t>(1, rows); return true; }
  return false;
}

// Note [One thread pool] BLAS runs single-threaded (gemm_register sets it once) and jtensor's pool
// splits the work: whole matrices per thread when a batch spreads over the threads, else each
// product's rows or columns. BLAS's own threads would spin beside the pool's after every product
// (on 2 cores: 3 busy threads, each op's second thread sharing a core with a spinning one; the GPT
// step spent as much CPU in OpenBLAS's idle workers as in its main thread) and meet at barriers
// inside every product, which costs most at a convolution's per-sample sizes ([64, 576] x [576, 1024]).
constexpr int64_t kSplitWork = int64_t(1) << 18;  // m·n·k below which one thread does a product (OpenBLAS's own bound)

bool split_batches(int64_t batches, int64_t mnk, int threads) {
  if (threads <= 1 || batches <= 1) return false;
  return mnk < kSplitWork || batches % threads == 0 || batches >= 4 * threads;
}

template <typename T, typename Fn>
bool try_blas(const GemmPlan& p, Fn fn) {
  if (!fn || p.m > INT32_MAX || p.n > INT32_MAX || p.k > INT32_MAX) return false;
  int ta, tb, lda, ldb, tc, ldc;
  if (!blas_layout(p.a_row, p.a_col, p.m, p.k, ta, lda) || !blas_layout(p.b_row, p.b_col, p.k, p.n, tb, ldb) ||
      !blas_layout(p.c_row, p.c_col, p.m, p.n, tc, ldc) || tc != kNoTrans)
    return false;
  const T* A = static_cast<const T*>(p.a);
  const T* B = static_cast<const T*>(p.b);
  T* C = static_cast<T*>(p.c);
  // Rows [i0, i1) and columns [j0, j1) of batch b's product: an operand's slice is a pointer offset
  // along its rows or columns as stored (a transposed operand's rows are its stored columns).
  auto block = [&](int64_t b, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
    int64_t oa, ob, oc;
    batch_offsets(p, b, oa, ob, oc);
    const T* a = A + oa + (ta == kNoTrans ? i0 * lda : i0);
    const T* bb = B + ob + (tb == kNoTrans ? j0 : j0 * ldb);
    fn(kRowMajor, ta, tb, (int)(i1 - i0), (int)(j1 - j0), (int)p.k, (T)p.alpha, a, lda, bb, ldb, (T)p.beta,
       C + oc + i0 * ldc + j0, ldc);
  };
  const int64_t batches = batch_count(p);
  const int threads = get_num_threads();
  if (split_batches(batches, p.m * p.n * p.k, threads)) {
    parallel_for(0, batches, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) block(b, 0, p.m, 0, p.n);
    });
    return true;
  }
  // One product at a time, cut along its longer side into one part per thread, each a multiple of
  // 16 elements (a 64-byte row of floats) but the last.
  const bool rows = p.m >= p.n;
  const int64_t len = rows ? p.m : p.n;
  const int64_t part = ((len + threads - 1) / threads + 15) & ~int64_t(15);
  const int64_t parts = threads <= 1 || p.m * p.n * p.k < kSplitWork ? 1 : (len + part - 1) / part;
  for (int64_t b = 0; b < batches; ++b) {
    if (parts == 1) {
      block(b, 0, p.m, 0, p.n);
      continue;
    }
    parallel_for(0, parts, 1, [&](int64_t q0, int64_t q1) {
      for (int64_t q = q0; q < q1; ++q) {
        const int64_t s = q * part, e = std::min(len, s + part);
        if (rows) block(b, s, e, 0, p.n);
        else block(b, 0, p.m, s, e);
      }
    });
  }
  return true;
}

// float16 and bfloat16 through BLAS: each operand widened to a dense float32 copy (once, when it is
// the same matrix for every batch), one float32 product, C rounded once. PyTorch's CPU products in
// these dtypes also accumulate in float32 and round once; the copies cost O(mk + kn + mn) against
// the product's O(mnk), and BLAS runs the product at float32's speed instead of the loops' below.
// The copies are scratch from the caching allocator (its limit and statistics see them); when it
// refuses, false: the loops need none.
template <typename T>
bool try_widened_blas(const GemmPlan& p) {
  SgemmFn fn = g_sgemm.load();
  if (!fn || p.k == 0 || p.m > INT32_MAX || p.n > INT32_MAX || p.k > INT32_MAX) return false;
  const int64_t batches = batch_count(p);
  // strides[d] of a dense [batches..., rows, cols] copy, 0 for every d when the operand is shared
  auto dense_batch = [&](const int64_t* given, int64_t per, std::vector<int64_t>& out) {
    bool shared = true;
    for (int d = 0; d < p.batch_ndim; ++d) shared = shared && given[d] == 0;
    out.assign((size_t)p.batch_ndim, 0);
    int64_t step = per;
    for (int d = p.batch_ndim - 1; d >= 0 && !shared; --d) {
      out[(size_t)d] = step;
      step *= p.batch_sizes[d];
    }
    return shared;
  };
  // which: 0 A, 1 B, 2 C (batch_offsets' order)
  auto widen = [&](const T* src, int which, int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool shared, float* dst) {
    const int64_t copies = shared ? 1 : batches;
    parallel_for(0, copies * rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, cols)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        int64_t o[3];
        batch_offsets(p, r / rows, o[0], o[1], o[2]);
        const T* from = src + o[which] + r % rows * rs;
        float* to = dst + r * cols;
        for (int64_t j = 0; j < cols; ++j) to[j] = (float)load_elem(from + j * cs);
      }
    });
  };
  std::vector<int64_t> ab, bb, cb;
  const bool a_shared = dense_batch(p.a_batch, p.m * p.k, ab), b_shared = dense_batch(p.b_batch, p.k * p.n, bb);
  dense_batch(p.c_batch, p.m * p.n, cb);
  ScratchBuffer sa((size_t)((a_shared ? 1 : batches) * p.m * p.k) * sizeof(float));
  ScratchBuffer sb((size_t)((b_shared ? 1 : batches) * p.k * p.n) * sizeof(float));
  ScratchBuffer sc((size_t)(batches * p.m * p.n) * sizeof(float));
  if (!sa.data() || !sb.data() || !sc.data()) return false;
  float *a = reinterpret_cast<float*>(sa.data()), *b = reinterpret_cast<float*>(sb.data()), *c = reinterpret_cast<float*>(sc.data());
  widen(static_cast<const T*>(p.a), 0, p.m, p.k, p.a_row, p.a_col, a_shared, a);
  widen(static_cast<const T*>(p.b), 1, p.k, p.n, p.b_row, p.b_col, b_shared, b);
  if (p.beta != 0) widen(static_cast<const T*>(p.c), 2, p.m, p.n, p.c_row, p.c_col, false, c);
  else std::fill(c, c + batches * p.m * p.n, 0.0f);
  GemmPlan q = p;
  q.dtype = DType::Float32;
  q.a = a, q.b = b, q.c = c;
  q.a_row = p.k, q.a_col = 1, q.b_row = p.n, q.b_col = 1, q.c_row = p.n, q.c_col = 1;
  q.a_batch = ab.data(), q.b_batch = bb.data(), q.c_batch = cb.data();
  if (!try_blas<float>(q, fn)) return false;  // dense layouts: only a BLAS refusal of the sizes
  T* C = static_cast<T*>(p.c);
  parallel_for(0, batches * p.m, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, p.n)), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t oa, ob, oc;
      batch_offsets(p, r / p.m, oa, ob, oc);
      T* to = C + oc + r % p.m * p.c_row;
      const float* from = c + r * p.n;
      for (int64_t j = 0; j < p.n; ++j) to[j * p.c_col] = T(from[j]);
    }
  });
  return true;
}

// Fallback for every dtype: i-k-j loops over blocks, accumulating in opmath (int64 for integers).
template <typename T>
void gemm_loops(const GemmPlan& p) {
  using A = typename std::conditional<std::is_integral<T>::value, int64_t, opmath_t<T>>::type;
  const T* Ab = static_cast<const T*>(p.a);
  const T* Bb = static_cast<const T*>(p.b);
  T* Cb = static_cast<T*>(p.c);
  const int64_t batches = batch_count(p), rows = batches * p.m;
  parallel_for(0, rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, p.n * p.k)), [&](int64_t r0, int64_t r1) {
    std::vector<A> acc((size_t)p.n);
    for (int64_t r = r0; r < r1; ++r) {
      int64_t b = r / p.m, i = r % p.m, oa, ob, oc;
      batch_offsets(p, b, oa, ob, oc);
      std::fill(acc.begin(), acc.end(), A(0));
      for (int64_t q = 0; q < p.k; ++q) {
        A av = (A)load_elem(Ab + oa + i * p.a_row + q * p.a_col);
        const T* brow = Bb + ob + q * p.b_row;
        for (int64_t j = 0; j < p.n; ++j) {
          if constexpr (std::is_integral<A>::value) acc[j] = (A)((uint64_t)acc[j] + (uint64_t)av * (uint64_t)(A)load_elem(brow + j * p.b_col));
          else acc[j] += av * (A)load_elem(brow + j * p.b_col);
        }
      }
      T* crow = Cb + oc + i * p.c_row;
      for (int64_t j = 0; j < p.n; ++j) {
        A prev = p.beta == 0 ? A(0) : (A)load_elem(crow + j * p.c_col);
        if constexpr (std::is_same<T, bool>::value) {  // alpha and beta read as bools, as PyTorch's alpha.to<bool>()
          crow[j * p.c_col] = (p.alpha != 0 && acc[j] != 0) || (p.beta != 0 && prev != 0);
        } else if constexpr (std::is_integral<T>::value) {  // two's complement wrap-around (signed overflow is undefined)
          crow[j * p.c_col] = (T)(int64_t)((uint64_t)(int64_t)p.alpha * (uint64_t)acc[j] + (uint64_t)(int64_t)p.beta * (uint64_t)prev);
        } else {  // no product at all (k = 0) is beta * C whatever alpha is, as PyTorch's (inf * 0 would be NaN)
          crow[j * p.c_col] = (T)((p.k == 0 ? A(0) : (A)p.alpha * acc[j]) + (A)p.beta * prev);
        }
      }
    }
  });
}

}  // namespace

void gemm_register(void* sgemm, void* dgemm, void* set_threads) {
  g_sgemm = reinterpret_cast<SgemmFn>(sgemm);
  g_dgemm = reinterpret_cast<DgemmFn>(dgemm);
  if (set_threads) reinterpret_cast<SetThreadsFn>(set_threads)(1);  // Note [One thread pool]
}

bool gemm_has_blas() { return g_sgemm.load() != nullptr; }

int gemm_run(const GemmPlan& p) {
  if (p.m == 0 || p.n == 0 || batch_count(p) == 0) return 0;
  if (p.dtype == DType::Float32 && try_blas<float>(p, g_sgemm.load())) return 0;
  if (p.dtype == DType::Float64 && try_blas<double>(p, g_dgemm.load())) return 0;
  if (p.dtype == DType::BFloat16 && try_widened_blas<BFloat16>(p)) return 0;
  if (p.dtype == DType::Float16 && try_widened_blas<Half>(p)) return 0;
  if (!valid_dtype((int)p.dtype)) return -1;
  dispatch_dtype(p.dtype, [&](auto t) { gemm_loops<typename decltype(t)::type>(p); });
  return 0;
}

}  // namespace jt
