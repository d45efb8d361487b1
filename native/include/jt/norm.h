// The geometry and backward algebra of normalization (batch, layer and group norm) for the CPU and
// CUDA kernels alike (JT_HOST_DEVICE). x is [n, c, s]; a statistics group (a "unit") is one channel
// over every sample (by_channel: batch norm) or c/groups consecutive channels of one sample (layer
// and group norm). A unit's elements are runs of s, one per (sample, channel) it holds.
#pragma once
#include <cstdint>
#include <cstring>

#include "jt/dtype.h"
#include "jt/plans.h"

namespace jt {

struct NormGeometry {
  int64_t n = 0, c = 0, s = 0, groups = 1;
  bool by_channel = false, fixed = false;
  double eps = 0;

  // False when the plan's numbers cannot describe a normalization (Java checks first; this guards the kernel).
  bool read(const norm_plan& r) {
    if (r.n < 0 || r.c < 0 || r.s < 0 || (r.by_channel != 0 && r.by_channel != 1) || (r.fixed != 0 && r.fixed != 1)) return false;
    n = r.n;
    c = r.c;
    s = r.s;
    by_channel = r.by_channel != 0;
    fixed = r.fixed != 0;
    groups = by_channel ? 1 : r.groups;
    if (groups < 1 || (c > 0 && c % groups != 0)) return false;
    int64_t nc = 0, ncs = 0;  // every index the kernels form lies below n·c·s: it must not wrap
    if (__builtin_mul_overflow(n, c, &nc) || __builtin_mul_overflow(nc, s, &ncs)) return false;
    std::memcpy(&eps, &r.eps, sizeof eps);  // any value, as PyTorch's layer and group norm take (batch norm's rule is Java's)
    return true;
  }

  // Statistics groups, and elements in each.
  JT_HOST_DEVICE int64_t units() const { return by_channel ? c : n * groups; }
  JT_HOST_DEVICE int64_t unit_elements() const { return by_channel ? n * s : (c / groups) * s; }
  JT_HOST_DEVICE int64_t channels_per_group() const { return c / groups; }
  // The unit that element run (sample nn, channel ch) belongs to.
  JT_HOST_DEVICE int64_t unit_of(int64_t nn, int64_t ch) const { return by_channel ? ch : nn * groups + ch / (c / groups); }
  // Element j of unit u (j < unit_elements()): its offset in x and its channel.
  JT_HOST_DEVICE int64_t offset(int64_t u, int64_t j, int64_t& ch) const {
    if (by_channel) {
      ch = u;
      const int64_t nn = j / s;
      return (nn * c + u) * s + (j - nn * s);
    }
    const int64_t cpg = c / groups, nn = u / groups;
    ch = (u - nn * groups) * cpg + j / s;
    return nn * c * s + (u - nn * groups) * cpg * s + j;
  }
};

// A unit's mean, kept in double (the saved statistics are float64) and applied to x in the
// accumulator type A as hi + lo: (x - hi) - lo is x - mean to A's precision even where the mean is
// large against the spread (hi's rounding alone would shift every x̂ by up to half an ulp of the mean).
template <typename A>
struct CenteredMean {
  A hi, lo;
  JT_HOST_DEVICE explicit CenteredMean(double mean) : hi((A)mean), lo((A)(mean - (double)(A)mean)) {}
  JT_HOST_DEVICE A center(A x) const { return (x - hi) - lo; }
};

// The input gradient within one unit of m elements, from its sums sum_g = Σ weight·grad and
// sum_gc = Σ weight·grad·(x - mean): dx = rstd·(weight·grad - d) + b·(x - mean), which is
// rstd·(weight·grad - mean(weight·grad) - x̂·mean(weight·grad·x̂)) with x̂ = (x - mean)·rstd. d is
// weight·grad's mean, subtracted before rstd scales (a unit of one element gives exactly 0).
// Fixed statistics (eval) do not depend on x: b = d = 0.
template <typename A>
JT_HOST_DEVICE inline void norm_dx_terms(A rstd, A sum_g, A sum_gc, A m, bool fixed, A& b, A& d) {
  if (fixed || m == A(0)) {
    b = A(0);
    d = A(0);
    return;
  }
  b = -rstd * rstd * rstd * sum_gc / m;
  d = sum_g / m;
}

}  // namespace jt
