// LU, its solves and Cholesky on the CPU (linalg.h): row-major loops whose inner loop runs along a
// row, so each row operation is a contiguous axpy the compiler vectorizes. Parallel over the batch.
#include "kernels/linalg.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

#include "jt/jt.h"
#include "kernels/gemm.h"
#include "parallel.h"

namespace jt {
namespace {

// Matrices per task: one large matrix is a task; small ones group until about kGrainSize flops.
int64_t matrix_grain(int64_t n, int64_t k) {
  int64_t work = n * n * (k > 0 ? k : 1) + 1;
  return work >= kGrainSize ? 1 : kGrainSize / work;
}

// y[0, len) -= s * x[0, len)
template <typename T>
inline void axpy_minus(T* y, const T* x, T s, int64_t len) {
  for (int64_t i = 0; i < len; ++i) y[i] -= s * x[i];
}

// Matrices from this side up are factored in panels of kPanel columns, the trailing update a GEMM.
constexpr int64_t kBlockedFrom = 128, kPanel = 64;

// getf2's right-looking elimination of columns [j0, j1) of the n x n matrix a, rows swapped whole
// (as dlaswp on both sides) and the update kept within the panel's columns: the pivot is the first
// element of largest magnitude in the column (idamax's choice, so a NaN below the diagonal is
// never picked). A zero pivot is recorded and its column left unscaled, but the trailing update
// still runs with it, as LAPACK's: the column's zeros leave the rest as it is, its NaNs reach U
// (det [[0, 1], [NaN, 1]] is NaN in PyTorch, not 0).
template <typename T>
void lu_panel(T* a, int64_t n, int64_t j0, int64_t j1, int32_t* piv, int32_t* info) {
  for (int64_t j = j0; j < j1; ++j) {
    int64_t p = j;
    T best = std::abs(a[j * n + j]);
    for (int64_t i = j + 1; i < n; ++i) {
      T v = std::abs(a[i * n + j]);
      if (v > best) best = v, p = i;
    }
    piv[j] = (int32_t)(p + 1);
    T pivot = a[p * n + j];
    bool zero = pivot == T(0);
    if (zero && *info == 0) *info = (int32_t)(j + 1);
    if (p != j) {
      for (int64_t c = 0; c < n; ++c) std::swap(a[j * n + c], a[p * n + c]);
    }
    const T* row = a + j * n + j + 1;
    for (int64_t i = j + 1; i < n; ++i) {
      T l = zero ? a[i * n + j] : a[i * n + j] / pivot;
      a[i * n + j] = l;
      axpy_minus(a + i * n + j + 1, row, l, j1 - j - 1);
    }
  }
}

// getrf: one panel for a small matrix; else per panel, U12 = L11⁻¹ A12 by rows, then A22 -= L21 U12
// through the GEMM (whose own threads serve a single large matrix: the batch loop is then one task).
template <typename T>
int lu_one(T* a, int64_t n, int32_t* piv, int32_t* info) {
  *info = 0;
  int64_t width = n < kBlockedFrom ? n : kPanel;
  for (int64_t j0 = 0; j0 < n; j0 += width) {
    int64_t j1 = std::min(n, j0 + width), rest = n - j1;
    lu_panel(a, n, j0, j1, piv, info);
    if (rest == 0) break;
    for (int64_t r = j0 + 1; r < j1; ++r) {
      for (int64_t c = j0; c < r; ++c) axpy_minus(a + r * n + j1, a + c * n + j1, a[r * n + c], rest);
    }
    GemmPlan g{DTypeOf<T>::value, rest, rest, j1 - j0, a + j1 * n + j0, a + j0 * n + j1, a + j1 * n + j1,
               n, 1, n, 1, n, 1, 0, nullptr, nullptr, nullptr, nullptr, -1.0, 1.0};
    int status = gemm_run(g);
    if (status != JT_OK) return status;
  }
  return JT_OK;
}

// getrs: the row swaps in order, then L's forward and U's backward substitution, a row of b at a time.
template <typename T>
void lu_solve_one(const T* lu, const int32_t* piv, int64_t n, int64_t k, T* b) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = piv[i] - 1;
    if (p != i) {
      for (int64_t c = 0; c < k; ++c) std::swap(b[i * k + c], b[p * k + c]);
    }
  }
  for (int64_t i = 1; i < n; ++i) {
    for (int64_t j = 0; j < i; ++j) axpy_minus(b + i * k, b + j * k, lu[i * n + j], k);
  }
  for (int64_t i = n - 1; i >= 0; --i) {
    for (int64_t j = i + 1; j < n; ++j) axpy_minus(b + i * k, b + j * k, lu[i * n + j], k);
    T d = lu[i * n + i];
    for (int64_t c = 0; c < k; ++c) b[i * k + c] /= d;
  }
}

// potrf's lower Cholesky by rows: L[i][j] from the dot of rows i and j of L so far. !(d > 0)
// also stops at a NaN, whose minor PyTorch reports as not positive-definite.
template <typename T>
void cholesky_one(T* a, int64_t n, int32_t* info) {
  *info = 0;
  for (int64_t j = 0; j < n; ++j) {
    T* rj = a + j * n;
    T d = rj[j];
    for (int64_t c = 0; c < j; ++c) d -= rj[c] * rj[c];
    if (!(d > T(0))) {
      *info = (int32_t)(j + 1);
      return;
    }
    T ljj = std::sqrt(d);
    rj[j] = ljj;
    for (int64_t i = j + 1; i < n; ++i) {
      T* ri = a + i * n;
      T s = ri[j];
      for (int64_t c = 0; c < j; ++c) s -= ri[c] * rj[c];
      ri[j] = s / ljj;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = i + 1; c < n; ++c) a[i * n + c] = T(0);
  }
}

// f(TypeTag<T>) for float32 and float64; -1 for any other dtype.
template <typename F>
int floating(DType dtype, F&& f) {
  if (dtype == DType::Float32) return f(TypeTag<float>{});
  if (dtype == DType::Float64) return f(TypeTag<double>{});
  return -1;
}

}  // namespace

int lu_factor(DType dtype, void* a, int64_t batch, int64_t n, int32_t* pivots, int32_t* info) {
  return floating(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::atomic<int> status{JT_OK};
    parallel_for(0, batch, matrix_grain(n, n), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        int st = lu_one(static_cast<T*>(a) + b * n * n, n, pivots + b * n, info + b);
        if (st != JT_OK) status.store(st);
      }
    });
    return status.load();
  });
}

int lu_solve(DType dtype, const void* lu, const int32_t* pivots, int64_t batch, int64_t n, int64_t k, void* b) {
  return floating(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    parallel_for(0, batch, matrix_grain(n, k), [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) {
        lu_solve_one(static_cast<const T*>(lu) + i * n * n, pivots + i * n, n, k, static_cast<T*>(b) + i * n * k);
      }
    });
    return (int)JT_OK;
  });
}

int cholesky(DType dtype, void* a, int64_t batch, int64_t n, int32_t* info) {
  return floating(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    parallel_for(0, batch, matrix_grain(n, n), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) cholesky_one(static_cast<T*>(a) + b * n * n, n, info + b);
    });
    return (int)JT_OK;
  });
}

}  // namespace jt
