// jtensor's own CUDA GEMM: the gemm plan of jt/plans.h on device memory, for every dtype the
// CPU's jt_gemm takes. CUDA's float paths go to cuBLAS when the machine has it (Java's
// CudaBlas); this is what runs otherwise, and for the integer and bool dtypes always.
#pragma once
#include <stdint.h>

#include "jtc/jtc.h"

#ifdef __cplusplus
extern "C" {
#endif

// C[b] = alpha * A[b] @ B[b] + beta * C[b] on the current stream (asynchronous). float16 and
// bfloat16 run on tensor cores with float accumulation where every operand's contiguous
// dimension is a multiple of 8 elements and 16-byte aligned, else on the tiled kernel; integers
// accumulate in int64, floats in float (double for float64), bool as the CPU's (any product).
// Answers JT_OK, JT_INVALID (a plan of another version, out_dtype != dtype, a bad dtype or a
// negative size), JT_NO_KERNEL (more than 16 batch dims that do not merge) or JTC_CUDA_ERROR.
JTC_API int jtc_gemm(const int64_t* plan);

#ifdef __cplusplus
}
#endif
