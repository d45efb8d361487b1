// Reductions (see reduce.cpp).
#pragma once
#include <cstdint>

#include "jt/dtype.h"
#include "jt/functors.h"

namespace jt {

enum ReduceOp { kReduceSum = 0, kReduceProd = 1, kReduceAmax = 2, kReduceAmin = 3, kReduceAny = 4, kReduceAll = 5, kReduceArgmax = 6, kReduceArgmin = 7 };

// Output dtypes: sum/prod of integers and bool give int64, otherwise the input dtype; any/all give
// bool; argmax/argmin give int64 indices (and, when values is set, the values in the input dtype).
struct RedPlan {
  int op;
  DType dtype;  // the input's
  int ndim;
  void* out;
  const void* in;
  void* values;  // arg reductions only, may be null; same strides as out
  const int64_t* sizes;
  const int64_t* out_strides;  // elements; 0 on reduced dims
  const int64_t* in_strides;
  const int64_t* reduced;      // 1 on reduced dims
  double scale;                // floating sums are multiplied by it (mean: 1/count)
};

int reduce_run(const RedPlan& p);  // 0, or -1 for an unknown op

}  // namespace jt
