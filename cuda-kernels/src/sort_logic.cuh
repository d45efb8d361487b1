// sort on CUDA, element by element (host and device code; the host tests run it): every line is
// gathered into contiguous scratch with its positions, sorted by bottom-up merge passes, then
// scattered into values and indices. In a pass of width w each element finds its place in the
// merged pair of runs by a binary search of the other run: a left element goes after the right
// run's elements that sort strictly before it, a right element after the left run's elements that
// do not sort after it, which keeps ties in input order (stable, as the CPU's std::stable_sort).
#pragma once
#include <cstdint>

#include "jt/functors.h"
#include "jt/plans.h"
#include "jt/sort_order.h"
#include "lines.cuh"

namespace jt {
namespace cuda {

struct SortArgs {
  char* values;
  int64_t* indices;
  const char* in;
  Lines<3> lines;  // [0] values, [1] indices, [2] in
  bool descending;
  int64_t n;  // lines.count * lines.len
};

inline bool prepare_sort(const sort_plan& r, SortArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype)) return false;
  const int64_t item = (int64_t)dtype_size((DType)r.dtype);
  const int64_t elem[3] = {item, 8, item};
  const int64_t* strides[3] = {r.values_strides, r.indices_strides, r.in_strides};
  a.values = reinterpret_cast<char*>(r.values);
  a.indices = reinterpret_cast<int64_t*>(r.indices);
  a.in = reinterpret_cast<const char*>(r.in);
  a.descending = r.descending != 0;
  if (!a.lines.build((int)r.ndim, (int)r.dim, r.sizes, strides, elem)) return false;
  a.n = a.lines.count * a.lines.len;
  return true;
}

// Element e (line e / len, position e % len) of the input into the scratch keys, with its position.
template <typename T>
JT_HOST_DEVICE void sort_gather(const SortArgs& a, int64_t e, T* keys, int64_t* pos) {
  const int64_t len = a.lines.len, l = e / len, i = e - l * len;
  int64_t off[3];
  a.lines.start(l, off);
  keys[e] = *reinterpret_cast<const T*>(a.in + off[2] + i * a.lines.step[2]);
  pos[e] = i;
}

// Element e's move in the merge pass of width w: from (keys, pos) into (keys_out, pos_out).
template <typename T>
JT_HOST_DEVICE void sort_merge_step(int64_t len, int64_t w, bool descending, int64_t e, const T* keys, const int64_t* pos,
                                    T* keys_out, int64_t* pos_out) {
  using K = opmath_t<T>;
  const int64_t l = e / len, p = e - l * len;
  const T* k = keys + l * len;
  const int64_t run = p / w, base = (run - (run & 1)) * w;
  const int64_t mid = base + w < len ? base + w : len, end = base + 2 * w < len ? base + 2 * w : len;
  const K x = (K)load_elem(k + p);
  int64_t dest;
  if (p < mid) {  // left run: count the right run's elements that sort strictly before x
    int64_t lo = mid, hi = end;
    while (lo < hi) {
      const int64_t m = lo + (hi - lo) / 2;
      if (sort_before((K)load_elem(k + m), x, descending)) lo = m + 1;
      else hi = m;
    }
    dest = p + (lo - mid);
  } else {  // right run: count the left run's elements that do not sort after x
    int64_t lo = base, hi = mid;
    while (lo < hi) {
      const int64_t m = lo + (hi - lo) / 2;
      if (!sort_before(x, (K)load_elem(k + m), descending)) lo = m + 1;
      else hi = m;
    }
    dest = base + (p - mid) + (lo - base);
  }
  keys_out[l * len + dest] = k[p];
  pos_out[l * len + dest] = pos[e];
}

// Sorted element e into values (the exact input element) and indices.
template <typename T>
JT_HOST_DEVICE void sort_scatter(const SortArgs& a, int64_t e, const T* keys, const int64_t* pos) {
  const int64_t len = a.lines.len, l = e / len, i = e - l * len;
  int64_t off[3];
  a.lines.start(l, off);
  *reinterpret_cast<T*>(a.values + off[0] + i * a.lines.step[0]) = keys[e];
  *reinterpret_cast<int64_t*>(reinterpret_cast<char*>(a.indices) + off[1] + i * a.lines.step[1]) = pos[e];
}

// The merge passes' widths: 1, 2, 4, ... while a width is below the line's length.
inline int sort_passes(int64_t len) {
  int passes = 0;
  for (int64_t w = 1; w < len; w *= 2) ++passes;
  return passes;
}

}  // namespace cuda
}  // namespace jt
