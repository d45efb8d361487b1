// Indexing along one dim, over tensors given by their strides: PyTorch's gather, scatter,
// scatter_add, index_select and index_add_. The index tensor is read here, every value checked
// against the dim's size (and wrapped when negative) before any byte moves.
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

enum class AlongMode : int {
  Gather = 0,      // other[p] = self[p with p[dim] = index[p]]; other is the op's fresh output
  Scatter = 1,     // self[p with p[dim] = index[p]] = other[p]; the last of repeated positions wins
  Accumulate = 2,  // self[p with p[dim] = index[p]] += other[p]; repeated positions all add
  Prod = 3,        // self[...] *= other[p] (scatter_reduce's prod); like Accumulate, in order
  Amax = 4,        // self[...] = max(self[...], other[p]); a NaN on either side wins (scatter_reduce)
  Amin = 5,        // self[...] = min(self[...], other[p]); likewise
};

struct AlongPlan {
  AlongMode mode;
  DType dtype;        // self's and other's
  DType index_dtype;  // Int64 or Int32
  int ndim;           // >= 1
  int dim;
  int64_t dim_size;   // self's size along dim: indices lie in [-dim_size, dim_size)
  char* self;
  const char* index;
  char* other;
  const int64_t* shape;          // the iteration shape (index's, or self's with dim = len(index))
  const int64_t* self_strides;   // elements; the one along dim is applied to the index value
  const int64_t* index_strides;  // elements; 0 where one index serves a whole slice (index_select)
  const int64_t* other_strides;
};

// 0; 1 with *bad set to the first index out of range (self untouched; a gather may have written
// part of other, the op's fresh output, which the caller then drops); -1 for a dtype it lacks.
int index_along(const AlongPlan& p, int64_t* bad);

}  // namespace jt
