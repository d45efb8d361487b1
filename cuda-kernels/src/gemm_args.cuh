// What the CUDA GEMM kernels share: the plan's geometry as one kernel argument, the batch walk,
// and which tile a block works on.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "jt/dtype.h"

namespace jt {
namespace cuda {

// Batch dims left after merging (see gemm.cu); more answer JT_NO_KERNEL. Kernels take GemmArgs
// __grid_constant__: the batch walk (a member call) reads it in place, not from a local copy.
constexpr int kGemmMaxBatchDims = 16;

// C[b] = alpha * A[b] @ B[b] + beta * C[b]; A m x k, B k x n, C m x n; strides in elements.
struct GemmArgs {
  int64_t m, n, k;
  int64_t a_row, a_col, b_row, b_col, c_row, c_col;
  int64_t batches;  // the product of batch_size
  int batch_ndim;
  int64_t batch_size[kGemmMaxBatchDims];
  int64_t a_batch[kGemmMaxBatchDims], b_batch[kGemmMaxBatchDims], c_batch[kGemmMaxBatchDims];
  double alpha, beta;

  // Element offsets of batch entry b in A, B and C.
  __device__ void offsets(int64_t b, int64_t& oa, int64_t& ob, int64_t& oc) const {
    oa = ob = oc = 0;
#pragma unroll 1
    for (int d = batch_ndim - 1; d >= 0; --d) {
      const int64_t q = b / batch_size[d], i = b - q * batch_size[d];
      b = q;
      oa += i * a_batch[d];
      ob += i * b_batch[d];
      oc += i * c_batch[d];
    }
  }
};

// A block's tile: batch entry, and the first row and column of its bm x bn piece of C. Tiles of
// one batch entry run in groups of `group` tile rows, column by column, so blocks resident
// together share A's rows and B's columns in L2.
struct GemmTile {
  int64_t batch, m0, n0;
};
__device__ inline GemmTile gemm_tile(int64_t t, int64_t tiles_m, int64_t tiles_n, int bm, int bn, int group) {
  const int64_t per_batch = tiles_m * tiles_n;
  GemmTile r;
  r.batch = t / per_batch;
  t -= r.batch * per_batch;
  const int64_t in_group = (int64_t)group * tiles_n, first = (t / in_group) * group;
  const int64_t rows = tiles_m - first < group ? tiles_m - first : group;
  const int64_t u = t % in_group;
  r.m0 = (first + u % rows) * bm;
  r.n0 = (u / rows) * bn;
  return r;
}

// Blocks for `tiles` tiles: one each, up to the grid's limit (the kernels loop past it).
inline unsigned gemm_blocks(int64_t tiles) { return (unsigned)(tiles < 0x7fffffff ? tiles : 0x7fffffff); }

// The launchers (gemm_simt.cu, gemm_tc.cu): a cudaError_t of the launch.
cudaError_t launch_gemm_simt(DType dtype, const GemmArgs& g, const void* a, const void* b, void* c, cudaStream_t s);
// float16/bfloat16 on tensor cores; a_k_contiguous: A's column stride is 1 (else its row stride
// is); b_n_contiguous: B's column stride is 1 (else its row stride is). gemm.cu checks alignment.
cudaError_t launch_gemm_tensor_core(DType dtype, const GemmArgs& g, const void* a, const void* b, void* c,
                                    bool a_k_contiguous, bool b_n_contiguous, cudaStream_t s);

}  // namespace cuda
}  // namespace jt
