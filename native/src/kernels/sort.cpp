// sort along one dim: each line's (value, position) pairs sorted by value, lines in parallel.
// PyTorch's order (jt/sort_order.h); stable keeps equal values in their input order.
// Values are written as the exact input elements.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "jt/functors.h"
#include "jt/sort_order.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

template <typename T>
void sort_typed(const SortPlan& p) {
  using K = opmath_t<T>;
  const T* in = static_cast<const T*>(p.in);
  T* values = static_cast<T*>(p.values);
  int64_t* indices = static_cast<int64_t*>(p.indices);
  int64_t lines = 1;
  for (int d = 0; d < p.ndim; ++d)
    if (d != p.dim) lines *= p.sizes[d];
  const int64_t len = p.sizes[p.dim];
  const int64_t is = p.in_strides[p.dim], vs = p.values_strides[p.dim], xs = p.indices_strides[p.dim];
  parallel_for(0, lines, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len * 8, 1)), [&](int64_t b, int64_t e) {
    std::vector<std::pair<K, int64_t>> line((size_t)len);
    for (int64_t l = b; l < e; ++l) {
      int64_t rem = l, io = 0, vo = 0, xo = 0;
      for (int d = p.ndim - 1; d >= 0; --d) {
        if (d == p.dim) continue;
        int64_t x = rem % p.sizes[d];
        rem /= p.sizes[d];
        io += x * p.in_strides[d];
        vo += x * p.values_strides[d];
        xo += x * p.indices_strides[d];
      }
      for (int64_t i = 0; i < len; ++i) line[(size_t)i] = {(K)load_elem(in + io + i * is), i};
      const bool descending = p.descending;
      std::stable_sort(line.begin(), line.end(), [descending](const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& c) {
        return sort_before(a.first, c.first, descending);
      });
      for (int64_t i = 0; i < len; ++i) {
        const int64_t from = line[(size_t)i].second;
        values[vo + i * vs] = in[io + from * is];  // the element itself, bit for bit
        indices[xo + i * xs] = from;
      }
    }
  });
}

}  // namespace

int sort_run(const SortPlan& p) {
  if (!valid_dtype((int)p.dtype)) return -1;
  dispatch_dtype(p.dtype, [&](auto t) { sort_typed<typename decltype(t)::type>(p); });
  return 0;
}

}  // namespace jt
