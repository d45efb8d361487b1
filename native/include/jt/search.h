// searchsorted's binary search for one value, shared by the CPU kernel and the CUDA one: PyTorch
// 2.13's comparisons (Bucketization.cpp: !(mid >= v) moves right for the lower bound, !(mid > v)
// for the upper), so a NaN value or boundary goes where PyTorch's does; a sorter entry is a
// position within its own row, as PyTorch reads it.
#pragma once
#include "jt/functors.h"
#include "jt/plans.h"

namespace jt {

// Whether a search plan's counts agree (every value has its row; int64 or int32 out), as both jt_search and jtc_search check.
inline bool search_plan_valid(const search_plan& r) {
  if (!r.current() || !valid_dtype((int)r.dtype)) return false;
  if (r.out_dtype != (int64_t)DType::Int32 && r.out_dtype != (int64_t)DType::Int64) return false;
  return r.n >= 0 && r.len >= 0 && r.rows >= 1 && (r.shared ? r.rows == 1 : (r.inner >= 1 && r.n == r.rows * r.inner));
}

// The position of value i of a search plan (plans.h) within its row; -1 for a sorter entry outside
// its row (refused before the kernel runs: never read outside bd).
template <typename T>
JT_HOST_DEVICE inline int64_t search_position(const search_plan& p, int64_t i) {
  using K = opmath_t<T>;
  const T* bd = reinterpret_cast<const T*>(p.bd);
  const int64_t* sorter = reinterpret_cast<const int64_t*>(p.sorter);
  const K v = (K)load_elem(reinterpret_cast<const T*>(p.in) + i);
  const int64_t base = p.shared ? 0 : i / p.inner * p.len;
  int64_t start = base, end = base + p.len;
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    int64_t at = mid;
    if (sorter) {
      if (sorter[mid] < 0 || sorter[mid] >= p.len) return -1;
      at = base + sorter[mid];
    }
    const K m = (K)load_elem(bd + at);
    if (p.right ? !(m > v) : !(m >= v)) start = mid + 1;
    else end = mid;
  }
  return start - base;
}

// Writes value i's position as the plan's out dtype (int64 or int32).
template <typename T>
JT_HOST_DEVICE inline void search_store(const search_plan& p, int64_t i) {
  const int64_t pos = search_position<T>(p, i);
  if (p.out_dtype == (int64_t)DType::Int32) reinterpret_cast<int32_t*>(p.out)[i] = (int32_t)pos;
  else reinterpret_cast<int64_t*>(p.out)[i] = pos;
}

}  // namespace jt
