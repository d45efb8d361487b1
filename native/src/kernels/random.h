// Random draws from Philox4x32-10 (counter-based): element e of a draw depends only on the key
// and the counter of its block, never on the thread count or chunking. Values are written to a
// strided tensor in row-major element order.
#pragma once
#include <cstdint>

#include "jt/philox.h"  // RandomKind, philox_block and the per-element formulas

namespace jt {

struct RandomPlan {
  RandomDraw draw;
  DType dtype;
  int ndim;
  char* dst;
  const char* p;          // BernoulliTensor: the probabilities, float64 at p_strides
  const int64_t* sizes;
  const int64_t* dst_strides;
  const int64_t* p_strides;
};

// 0; 1 with *bad the first probability outside [0, 1] (nothing written); -1 for an unknown kind.
int random_run(const RandomPlan& p, double* bad);
int random_kind_id(const char* name);

}  // namespace jt
