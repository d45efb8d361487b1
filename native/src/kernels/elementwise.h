// The elementwise engine's entry points (see vectorized/elementwise.cpp; cpu_dispatch.cpp picks the instruction set).
#pragma once
#include <cstdint>

#include "jt/dtype.h"
#include "jt/functors.h"

namespace jt {

// An elementwise call: operand 0 is the output, 1..3 the inputs; strides in elements (0 where
// broadcast). Inputs have `dtype` (where's condition is bool); the output has `dtype`, or bool for
// predicates.
struct EwPlan {
  int op;
  DType dtype;
  int ndim;
  char* ptr[4];
  const int64_t* sizes;
  const int64_t* strides[4];
  Params params;
  // Bit k: operand k is a scalar slot holding a float32, the math type of a float16/bfloat16 op
  // (PyTorch converts a scalar to the op's math type, not to the tensor's dtype).
  unsigned opmath_scalars = 0;
};

int elementwise_op_id(const char* name);  // -1 when unknown
int elementwise_op_count();
const char* elementwise_op_name(int op);  // nullptr when out of range
// 0: no kernel for this dtype; else bit 0 set, arity in bits 1-2, bit 4 when the result is bool.
int elementwise_op_info(int op, int dtype);
int elementwise_run(const EwPlan& p);  // 0, or -1 when (op, dtype) has no kernel

}  // namespace jt
