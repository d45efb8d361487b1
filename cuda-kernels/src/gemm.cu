// jtc_gemm: reads the gemm plan, merges its batch dims, and picks the kernel: tensor cores for
// float16/bfloat16 operands laid out for 16-byte copies (gemm_tc.cu), the tiled kernel for the
// rest (gemm_simt.cu). cuBLAS, where the machine has it, is reached from Java (CudaBlas) instead.
#include <cstdint>

#include "jt/no_throw.h"
#include "gemm_args.cuh"
#include "jt/plans.h"
#include "jtc/jtc_gemm.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

// The plan's batch dims without size-1 dims, each merged into the next where all three operands
// step through both as through one (outer stride = inner stride * inner size). False when more
// than kGemmMaxBatchDims remain.
bool merge_batch_dims(const gemm_plan& r, GemmArgs& g) {
  g.batch_ndim = 0;
  g.batches = 1;
  for (int64_t d = 0; d < r.batch_ndim; ++d) {
    const int64_t size = r.batch_sizes[d];
    g.batches *= size;
    if (size == 1) continue;
    const int last = g.batch_ndim - 1;
    if (last >= 0 && r.a_batch[d] * size == g.a_batch[last] && r.b_batch[d] * size == g.b_batch[last] &&
        r.c_batch[d] * size == g.c_batch[last]) {
      g.batch_size[last] *= size;  // dim d continues the dims before it
      g.a_batch[last] = r.a_batch[d];
      g.b_batch[last] = r.b_batch[d];
      g.c_batch[last] = r.c_batch[d];
      continue;
    }
    if (g.batch_ndim == kGemmMaxBatchDims) return false;
    g.batch_size[g.batch_ndim] = size;
    g.a_batch[g.batch_ndim] = r.a_batch[d];
    g.b_batch[g.batch_ndim] = r.b_batch[d];
    g.c_batch[g.batch_ndim] = r.c_batch[d];
    ++g.batch_ndim;
  }
  return true;
}

bool multiples_of_8(const int64_t* strides, int n) {
  for (int d = 0; d < n; ++d)
    if (strides[d] % 8 != 0) return false;
  return true;
}

// An operand the tensor-core kernel can copy in 16-byte pieces along its unit-stride dimension:
// that dimension's extent, the other stride, every batch stride and the base all multiples of 8
// elements (2-byte elements: 16 bytes).
bool tensor_core_operand(const void* base, int64_t unit_stride, int64_t other_stride, int64_t unit_extent,
                         const int64_t* batch, int batch_ndim) {
  return unit_stride == 1 && unit_extent % 8 == 0 && other_stride % 8 == 0 && multiples_of_8(batch, batch_ndim) &&
         reinterpret_cast<uintptr_t>(base) % 16 == 0;
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int gemm_unguarded(const int64_t* words) {
  gemm_plan r(words);
  if (!r.current() || r.out_dtype != r.dtype || !valid_dtype((int)r.dtype) || r.m < 0 || r.n < 0 || r.k < 0 ||
      r.batch_ndim < 0)
    return JT_INVALID;
  for (int64_t d = 0; d < r.batch_ndim; ++d)
    if (r.batch_sizes[d] < 0) return JT_INVALID;
  GemmArgs g;
  g.m = r.m, g.n = r.n, g.k = r.k;
  g.a_row = r.a_row, g.a_col = r.a_col, g.b_row = r.b_row, g.b_col = r.b_col, g.c_row = r.c_row, g.c_col = r.c_col;
  std::memcpy(&g.alpha, &r.alpha, 8);
  std::memcpy(&g.beta, &r.beta, 8);
  if (!merge_batch_dims(r, g)) return JT_NO_KERNEL;
  if (g.m == 0 || g.n == 0 || g.batches == 0) return JT_OK;

  const DType dtype = (DType)r.dtype;
  const void* a = reinterpret_cast<const void*>(r.a);
  const void* b = reinterpret_cast<const void*>(r.b);
  void* c = reinterpret_cast<void*>(r.c);
  if (dtype == DType::Float16 || dtype == DType::BFloat16) {
    const int nd = g.batch_ndim;
    const bool a_k = tensor_core_operand(a, g.a_col, g.a_row, g.k, g.a_batch, nd);
    const bool a_m = !a_k && tensor_core_operand(a, g.a_row, g.a_col, g.m, g.a_batch, nd);
    const bool b_n = tensor_core_operand(b, g.b_col, g.b_row, g.n, g.b_batch, nd);
    const bool b_k = !b_n && tensor_core_operand(b, g.b_row, g.b_col, g.k, g.b_batch, nd);
    if ((a_k || a_m) && (b_n || b_k)) return status_of(launch_gemm_tensor_core(dtype, g, a, b, c, a_k, b_n, current_stream()));
  }
  return status_of(launch_gemm_simt(dtype, g, a, b, c, current_stream()));
}
int jtc_gemm(const int64_t* words) { return jt::guarded_status([&] { return gemm_unguarded(words); }); }
