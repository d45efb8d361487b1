// kthvalue, mode and nanmedian along one dim, a line per task, lines in parallel. Each picks among
// equal values exactly as PyTorch 2.13's CPU kernels do, so the same algorithms run here:
// kthvalue's quickselect (median-of-three pivot, NaN largest; SortingUtils.h), mode's std::sort
// of (value, position) pairs and a scan for the longest run (the first longest wins, its last
// pair's position is the index), and nanmedian's std::nth_element over positions.
#include <algorithm>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "jt/functors.h"
#include "jt/sort_order.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

// PyTorch's quick_select_template: leaves the k-th smallest (from 0) of v at v[k], pos moved alike.
template <typename K>
void quick_select(std::vector<K>& v, std::vector<int64_t>& pos, int64_t k) {
  auto gt = [](K x, K y) { return (sort_is_nan(x) && !sort_is_nan(y)) || x > y; };
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(v[(size_t)i], v[(size_t)j]);
    std::swap(pos[(size_t)i], pos[(size_t)j]);
  };
  int64_t L = 0, R = (int64_t)v.size() - 1;
  while (true) {
    if (R <= L) return;
    if (R == L + 1) {
      if (gt(v[L], v[R])) swap(L, R);
      return;
    }
    const int64_t P = L + (R - L) / 2;
    swap(P, L + 1);
    if (gt(v[L + 1], v[R])) swap(L + 1, R);
    if (gt(v[L], v[R])) swap(L, R);
    if (gt(v[L + 1], v[L])) swap(L + 1, L);
    int64_t i = L + 1, j = R;
    const K piv = v[L];
    while (true) {  // v[L] <= piv <= v[R] bound both scans inside [L, R]
      do ++i; while (gt(piv, v[i]));
      do --j; while (gt(v[j], piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

// PyTorch's mode_kernel_impl on one line: the position of its mode.
template <typename K>
int64_t mode_position(std::vector<std::pair<K, int64_t>>& e) {
  std::sort(e.begin(), e.end(), [](const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) { return a.first < b.first; });
  int64_t at = 0, run = 0, best = 0;
  const int64_t n = (int64_t)e.size();
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    if (i == n - 1 || e[(size_t)i].first != e[(size_t)i + 1].first) {
      if (run > best) {
        at = e[(size_t)i].second;
        best = run;
      }
      run = 0;
    }
  }
  return at;
}

// PyTorch's median_with_indices_impl for nanmedian on one line: the lower median of the non-NaN
// values (equal ones ordered by position); an all-NaN line gives the NaN nth_element leaves first.
template <typename K>
int64_t nanmedian_position(const std::vector<K>& v, std::vector<int64_t>& idx) {
  const int64_t n = (int64_t)v.size(), nans = std::count_if(v.begin(), v.end(), [](K x) { return sort_is_nan(x); });
  std::iota(idx.begin(), idx.end(), 0);
  auto nth = idx.begin() + (n - nans - 1) / 2;  // C++ division: 0 for an all-NaN line
  std::nth_element(idx.begin(), nth, idx.end(), [&v](int64_t i, int64_t j) {
    const K a = v[(size_t)i], b = v[(size_t)j];
    return a < b || (a == b && i < j) || (sort_is_nan(b) && !sort_is_nan(a));
  });
  return *nth;
}

template <typename T>
void select_typed(const select_plan& p) {
  using K = opmath_t<T>;
  const T* in = static_cast<const T*>(reinterpret_cast<void*>(p.in));
  int64_t* indices = reinterpret_cast<int64_t*>(p.indices);
  const int ndim = (int)p.ndim, dim = (int)p.dim;
  int64_t lines = 1;
  for (int d = 0; d < ndim; ++d)
    if (d != dim) lines *= p.sizes[d];
  const int64_t len = p.sizes[dim], is = p.in_strides[dim];
  parallel_for(0, lines, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len * 8, 1)), [&](int64_t b, int64_t e) {
    std::vector<K> v;
    std::vector<int64_t> pos;
    std::vector<std::pair<K, int64_t>> pairs;
    for (int64_t l = b; l < e; ++l) {
      int64_t rem = l, io = 0, xo = 0;
      for (int d = ndim - 1; d >= 0; --d) {
        if (d == dim) continue;
        int64_t x = rem % p.sizes[d];
        rem /= p.sizes[d];
        io += x * p.in_strides[d];
        xo += x * p.indices_strides[d];
      }
      if constexpr (std::is_same<K, bool>::value) {  // PyTorch has no bool kthvalue or nanmedian; select_run refuses them
      } else if (p.op == 0 || p.op == 2) {
        v.resize((size_t)len);
        pos.resize((size_t)len);
        for (int64_t i = 0; i < len; ++i) {
          v[(size_t)i] = (K)load_elem(in + io + i * is);
          pos[(size_t)i] = i;
        }
        if (p.op == 0) {
          quick_select(v, pos, p.k);
          indices[xo] = pos[(size_t)p.k];
        } else {
          indices[xo] = nanmedian_position(v, pos);
        }
      }
      if (p.op == 1) {
        pairs.resize((size_t)len);
        for (int64_t i = 0; i < len; ++i) pairs[(size_t)i] = {(K)load_elem(in + io + i * is), i};
        indices[xo] = mode_position(pairs);
      }
    }
  });
}

}  // namespace

int select_run(const select_plan& p) {
  if (p.op != 1 && (DType)p.dtype == DType::Bool) return -1;
  dispatch_dtype((DType)p.dtype, [&](auto t) { select_typed<typename decltype(t)::type>(p); });
  return 0;
}

}  // namespace jt
