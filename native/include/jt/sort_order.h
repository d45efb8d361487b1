// PyTorch's sort order, shared by the CPU's and the CUDA sort: NaN counts as larger than every
// number (last ascending, first descending). Keys are compared as opmath_t (float16/bfloat16 as
// float, which keeps their order).
#pragma once
#include "jt/dtype.h"

namespace jt {

template <typename K>
JT_HOST_DEVICE inline bool sort_is_nan(K v) {
  if constexpr (std::is_floating_point<K>::value) return v != v;
  else return false;
}

// a < b with NaN largest.
template <typename K>
JT_HOST_DEVICE inline bool sort_less(K a, K b) {
  if (sort_is_nan(a)) return false;
  if (sort_is_nan(b)) return true;
  return a < b;
}

// Whether a goes strictly before b in a sort's output (ties keep their input order: stable).
template <typename K>
JT_HOST_DEVICE inline bool sort_before(K a, K b, bool descending) {
  return descending ? sort_less(b, a) : sort_less(a, b);
}

}  // namespace jt
