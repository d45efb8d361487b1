// sort along one dim: each line's (value, position) pairs sorted by value, lines in parallel.
// PyTorch's order: NaN counts as larger than every number (last ascending, first descending);
// stable keeps equal values in their input order. Values are written as the exact input elements.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "jt/functors.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

template <typename K>
bool is_nan(K v) {
  if constexpr (std::is_floating_point<K>::value) return std::isnan(v);
  else return false;
}

// a < b in PyTorch's sort order, NaN largest.
template <typename K>
bool less(K a, K b) {
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

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
      auto asc = [](const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& c) { return less(a.first, c.first); };
      auto desc = [](const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& c) { return less(c.first, a.first); };
      if (p.descending) std::stable_sort(line.begin(), line.end(), desc);
      else std::stable_sort(line.begin(), line.end(), asc);
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
