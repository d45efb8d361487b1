// Batched matrix multiply (see gemm.cpp).
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

// C[b] = alpha * A[b] @ B[b] + beta * C[b]; A is m x k, B is k x n, C is m x n; strides in
// elements, batch dims broadcast (stride 0) as the caller laid them out.
struct GemmPlan {
  DType dtype;
  int64_t m, n, k;
  const void* a;
  const void* b;
  void* c;
  int64_t a_row, a_col, b_row, b_col, c_row, c_col;
  int batch_ndim;
  const int64_t* batch_sizes;
  const int64_t* a_batch;
  const int64_t* b_batch;
  const int64_t* c_batch;
  double alpha, beta;
};

void gemm_register(void* sgemm, void* dgemm, void* set_threads);
bool gemm_has_blas();
int gemm_run(const GemmPlan& p);

}  // namespace jt
