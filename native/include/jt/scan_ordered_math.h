// The per-element rules of cummax/cummin and logcumsumexp, for the CPU kernel (scan_ordered.cpp)
// and the CUDA one (scan_logic.cuh) alike, as PyTorch 2.13's cummax_cummin_helper and
// _log_add_exp_helper.
#pragma once
#include <cmath>
#include <type_traits>

#include "jt/dtype.h"

namespace jt {

template <typename V>
JT_HOST_DEVICE inline bool scan_is_nan(V v) {
  if constexpr (std::is_floating_point<V>::value) return std::isnan(v);
  else return false;
}

// Whether x takes over from the running extreme best: a NaN always does (so the last NaN's index is
// kept), an equal value does too (>= for cummax, <= for cummin), nothing after a NaN but a NaN.
template <bool Max, typename V>
JT_HOST_DEVICE inline bool cum_extreme_takes(V x, V best) {
  return scan_is_nan(x) || (!scan_is_nan(best) && (Max ? x >= best : x <= best));
}

// log(exp(x) + exp(acc)) without overflow; equal infinities stay (-inf, -inf is -inf, not NaN), and
// NaN carries on (std::min/max return their first argument when one is NaN, as PyTorch relies on).
template <typename A>
JT_HOST_DEVICE inline A log_add_exp(A x, A acc) {
  const A lo = std::isnan(acc) ? acc : (acc < x ? acc : x), hi = std::isnan(acc) ? acc : (x < acc ? acc : x);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

}  // namespace jt
