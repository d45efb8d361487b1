// Advanced indexing (x[i, j] with index tensors): PyTorch's index and index_put kernels. Every
// operand is walked over the result's shape by its strides; each index tensor (broadcast over
// that shape) selects a position along its own dim of self, whose stride it carries.
#pragma once
#include <cstdint>

#include "jt/dtype.h"
#include "jt/index_limits.h"  // kMaxAdvancedIndices

namespace jt {

struct AdvancedIndex {
  const char* data;
  DType dtype;              // Int64 or Int32
  int64_t size;             // the indexed dim's size: values lie in [-size, size)
  int64_t self_stride;      // the indexed dim's stride in self
  const int64_t* strides;   // over the result's shape, 0 where broadcast
};

struct AdvancedPlan {
  bool put;          // false: other[p] = self[...]; true: self[...] = other[p], the last of repeats winning
  DType dtype;
  int ndim;
  const int64_t* shape;
  char* self;
  const int64_t* self_strides;  // over the result's shape, 0 where the indices supply the position
  char* other;
  const int64_t* other_strides;
  int nindices;
  AdvancedIndex indices[kMaxAdvancedIndices];
};

// 0; 1 with bad[0] the first index out of range and bad[1] which index tensor held it (self
// untouched; a get may have written part of other, the op's fresh output); -1 when unsupported.
int index_advanced(const AdvancedPlan& p, int64_t* bad);

}  // namespace jt
