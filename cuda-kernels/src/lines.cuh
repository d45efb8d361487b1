// The lines of a tensor along one dim, for the kernels that walk a dim in order (scan, sort): line
// l's start in each of N operands, and each operand's step along the dim, in bytes. Host and
// device code alike (the host tests emulate the kernels with it).
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {
namespace cuda {

template <int N>
struct Lines {
  static constexpr int kMaxDims = 64;  // a plan's limit
  int ndim = 0;                        // the other dims, size-1 ones dropped
  int64_t count = 1, len = 0;          // how many lines; elements per line
  int64_t size[kMaxDims];
  int64_t stride[N][kMaxDims];
  int64_t step[N];  // along the dim

  // From a plan's outermost-first sizes and per-operand element strides (elem[k] bytes each).
  JT_HOST_DEVICE bool build(int dims, int dim, const int64_t* sizes, const int64_t* const* strides, const int64_t* elem) {
    if (dims < 1 || dims > kMaxDims || dim < 0 || dim >= dims) return false;
    ndim = 0;
    count = 1;
    len = sizes[dim];
    for (int k = 0; k < N; ++k) step[k] = strides[k][dim] * elem[k];
    for (int d = 0; d < dims; ++d) {
      if (d == dim || sizes[d] == 1) continue;
      size[ndim] = sizes[d];
      for (int k = 0; k < N; ++k) stride[k][ndim] = strides[k][d] * elem[k];
      count *= sizes[d];
      ++ndim;
    }
    return true;
  }

  // Line l's first element in every operand (byte offsets), l in row-major order of the other dims.
  JT_HOST_DEVICE void start(int64_t l, int64_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t q = l / size[d], i = l - q * size[d];
      l = q;
      for (int k = 0; k < N; ++k) off[k] += i * stride[k][d];
    }
  }
};

}  // namespace cuda
}  // namespace jt
