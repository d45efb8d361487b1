// Reductions (see vectorized/reduce.cpp).
#pragma once
#include <cstdint>

#include "jt/dtype.h"
#include "jt/functors.h"
#include "jt/reduce_ops.h"  // ReduceOp, kReduceNames

namespace jt {

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
  double divisor;              // floating sums are divided by it (mean: the count; 1: none)
};

int reduce_op_id(const char* name);        // -1 when unknown
int reduce_out_dtype(int op, int dtype);  // the dtype the kernel writes, -1 when it has none
int reduce_run(const RedPlan& p);  // 0, or -1 for an unknown op

}  // namespace jt
