// A strided iteration space for N operands, passed to a kernel by value: each thread turns a
// flat (row-major) index into every operand's byte offset. Built from a plan's sizes and element
// strides on the host; size-1 dims are dropped, so most plans need few dims.
#pragma once
#include <cstdint>

#include "jt/dtype.h"  // JT_HOST_DEVICE

namespace jt {
namespace cuda {

constexpr int kMaxDims = 25;  // PyTorch's MAX_DIMS: more non-trivial dims than this are refused

template <int N>
struct Geometry {
  int ndim = 0;
  int64_t size[kMaxDims];
  int64_t stride[N][kMaxDims];  // bytes

  // From outermost-first sizes and per-operand element strides (elem[k] bytes each); false when
  // more than kMaxDims dims are not of size 1.
  bool build(int dims, const int64_t* sizes, const int64_t* const* strides, const int64_t* elem) {
    ndim = 0;
    for (int d = 0; d < dims; ++d) {
      if (sizes[d] == 1) continue;
      if (ndim == kMaxDims) return false;
      size[ndim] = sizes[d];
      for (int k = 0; k < N; ++k) stride[k][ndim] = strides[k][d] * elem[k];
      ++ndim;
    }
    return true;
  }

  // True when operand k walks its bytes densely in flat order (stride elem for a single dim).
  bool dense(int k, int64_t elem) const {
    int64_t expect = elem;
    for (int d = ndim - 1; d >= 0; --d) {
      if (stride[k][d] != expect) return false;
      expect *= size[d];
    }
    return true;
  }

  // Host too: host tests run the kernels' per-thread logic over emulated grids.
  JT_HOST_DEVICE void offsets(int64_t linear, int64_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1  // one 64-bit division per dim: unrolled copies would multiply the kernels' code
#endif
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t q = linear / size[d], i = linear - q * size[d];
      linear = q;
      for (int k = 0; k < N; ++k) off[k] += i * stride[k][d];
    }
  }
};

}  // namespace cuda
}  // namespace jt
