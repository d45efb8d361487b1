// The arithmetic of softmax/log_softmax, one statement for the CPU kernel and the CUDA kernels
// (JT_HOST_DEVICE): a line's maximum, its sum of exp(x - max), and each output from the two.
// PyTorch's results follow from the formulas: a NaN anywhere in a line makes the line NaN, a line
// of only -inf is NaN (x - max is NaN), a +inf makes the sum NaN and so the line.
#pragma once
#include <cmath>
#include <limits>

#include "jt/dtype.h"

namespace jt {

// The maximum so far, NaN once any element was NaN.
template <typename A>
JT_HOST_DEVICE inline A softmax_max(A m, A x) {
  return (x > m || x != x) ? x : m;
}

// What each output needs besides x and the max: 1/sum (softmax) or log(sum) (log_softmax).
template <bool Log, typename A>
JT_HOST_DEVICE inline A softmax_scale(A sum) {
  if constexpr (Log) return std::log(sum);
  else return A(1) / sum;
}

struct StdExp {
  template <typename A>
  JT_HOST_DEVICE A operator()(A x) const { return std::exp(x); }
};

// exp_fn: the exp a kernel uses for exp(x - max), whose argument is never above 0.
template <bool Log, typename A, typename Exp = StdExp>
JT_HOST_DEVICE inline A softmax_value(A x, A max, A scale, Exp exp_fn = Exp()) {
  if constexpr (Log) return x - max - scale;
  else return exp_fn(x - max) * scale;
}

// Max and sum in one pass (the CUDA kernels read a line once for both): adding x rescales the
// sum when the max grows. Equal to the two-pass max and sum of exp(x - max) up to rounding, with
// the same NaN results: finish() makes the sum NaN where the two-pass sum is (a +inf max).
template <typename A>
struct OnlineSoftmax {
  A max, sum;

  JT_HOST_DEVICE OnlineSoftmax() : max(-std::numeric_limits<A>::infinity()), sum(0) {}

  JT_HOST_DEVICE void add(A x) {
    if (x != x || max != max) {
      max = x != x ? x : max;
    } else if (x > max) {
      sum = sum * std::exp(max - x) + A(1);  // max -inf: exp(-inf) is 0, and sum is 0
      max = x;
    } else if (x != -std::numeric_limits<A>::infinity()) {
      sum += std::exp(x - max);  // max +inf and x +inf: NaN, as the two-pass sum
    }
  }

  JT_HOST_DEVICE void merge(A omax, A osum) {
    if (omax != omax || max != max) {
      max = omax != omax ? omax : max;
      return;
    }
    const A inf = std::numeric_limits<A>::infinity();
    const A m = omax > max ? omax : max;
    const A a = max == -inf ? A(0) : sum * std::exp(max - m);  // max == m == +inf: exp(0)
    const A b = omax == -inf ? A(0) : osum * std::exp(omax - m);
    max = m;
    sum = a + b;
  }

  // The sum as the two-pass kernel has it: NaN under a +inf max (inf - inf in exp).
  JT_HOST_DEVICE A finished_sum() const {
    return max == std::numeric_limits<A>::infinity() ? std::numeric_limits<A>::quiet_NaN() : sum;
  }
};

}  // namespace jt
