// The CPU's dense factorizations for torch.linalg (linalg.cpp): LU with partial pivoting, the
// solves on its factors, and Cholesky. No LAPACK: plain loops, one matrix per task.
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

// Every matrix is row-major and contiguous, `batch` of them back to back; float32 and float64
// only (-1 for another dtype). JT_OK otherwise: a singular or non-positive-definite matrix is
// not an error here but an info entry the caller reads (LAPACK's convention).

// a's n x n matrices become L (unit diagonal, below) and U (on and above) in place; pivots
// ([batch, n], int32) the 1-based row swapped with each row, as getrf's ipiv; info ([batch], int32)
// 0, or the 1-based position of U's first zero diagonal element (the factorization still completes).
int lu_factor(DType dtype, void* a, int64_t batch, int64_t n, int32_t* pivots, int32_t* info);

// b's n x k matrices become A⁻¹ b, A given by lu_factor's lu and pivots (as many as b's).
int lu_solve(DType dtype, const void* lu, const int32_t* pivots, int64_t batch, int64_t n, int64_t k, void* b);

// a's n x n symmetric matrices, of which only the lower triangle is read, become L with A = L Lᵀ
// (the strict upper triangle zeroed); info 0, or the order of the first leading minor that is
// not positive-definite (that matrix is left part-written).
int cholesky(DType dtype, void* a, int64_t batch, int64_t n, int32_t* info);

}  // namespace jt
