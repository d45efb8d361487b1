// cummax, cummin and logcumsumexp along one dim, as PyTorch 2.13's CPU kernels: each line along
// the dim in order, lines in parallel.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "jt/functors.h"
#include "jt/scan_ordered_math.h"
#include "jt/scan_types.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

// Runs line(in_offset, out_offset, indices_offset) for every line along p.dim.
template <typename Line>
void for_each_line(const ScanPlan& p, Line line) {
  int64_t lines = 1;
  for (int d = 0; d < p.ndim; ++d)
    if (d != p.dim) lines *= p.sizes[d];
  const int64_t len = std::max<int64_t>(p.sizes[p.dim], 1);
  parallel_for(0, lines, std::max<int64_t>(1, kGrainSize / len), [&](int64_t b, int64_t e) {
    for (int64_t l = b; l < e; ++l) {
      int64_t rem = l, io = 0, oo = 0, xo = 0;
      for (int d = p.ndim - 1; d >= 0; --d) {
        if (d == p.dim) continue;
        int64_t x = rem % p.sizes[d];
        rem /= p.sizes[d];
        io += x * p.in_strides[d];
        oo += x * p.out_strides[d];
        if (p.indices) xo += x * p.indices_strides[d];
      }
      line(io, oo, xo);
    }
  });
}

// cum_extreme_takes decides (jt/scan_ordered_math.h); compared in float for float16/bfloat16.
template <typename T, bool Max>
void cumextreme(const ScanPlan& p) {
  using V = opmath_t<T>;
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  const int64_t len = p.sizes[p.dim], is = p.in_strides[p.dim], os = p.out_strides[p.dim], xs = p.indices_strides[p.dim];
  for_each_line(p, [&](int64_t io, int64_t oo, int64_t xo) {
    T best = load_elem(in + io);
    int64_t at = 0;
    for (int64_t i = 0; i < len; ++i) {
      const T x = load_elem(in + io + i * is);
      if (cum_extreme_takes<Max, V>((V)x, (V)best)) {
        best = x;
        at = i;
      }
      out[oo + i * os] = best;
      p.indices[xo + i * xs] = at;
    }
  });
}

// Accumulates in PyTorch's CPU acc_type: double for float32 and float64, float for float16/bfloat16.
template <typename T>
void logcumsumexp(const ScanPlan& p) {
  using A = typename ScanTypes<T>::CpuA;
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  const int64_t len = p.sizes[p.dim], is = p.in_strides[p.dim], os = p.out_strides[p.dim];
  for_each_line(p, [&](int64_t io, int64_t oo, int64_t) {
    A acc = -std::numeric_limits<A>::infinity();
    for (int64_t i = 0; i < len; ++i) {
      acc = log_add_exp<A>((A)load_elem(in + io + i * is), acc);
      out[oo + i * os] = (T)acc;
    }
  });
}

}  // namespace

int scan_ordered_run(const ScanPlan& p) {
  if (!valid_dtype((int)p.dtype)) return -1;
  if (p.sizes[p.dim] == 0) return 0;
  dispatch_dtype(p.dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    if (p.op == kCummax) cumextreme<T, true>(p);
    else if (p.op == kCummin) cumextreme<T, false>(p);
    else if constexpr (is_floating<T>::value) logcumsumexp<T>(p);
  });
  return 0;
}

}  // namespace jt
