// nonzero: the coordinates of a strided tensor's non-zero elements, row-major.
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

struct NonzeroPlan {
  DType dtype;
  int ndim;
  const char* src;
  const int64_t* sizes;
  const int64_t* strides;
};

int64_t count_nonzero(const NonzeroPlan& p);
// Writes the coordinates of the first `rows` non-zero elements into out ([rows, ndim] int64);
// returns how many non-zero elements it found (!= rows if the source changed since it was counted).
int64_t nonzero_coords(const NonzeroPlan& p, int64_t* out, int64_t rows);

}  // namespace jt
