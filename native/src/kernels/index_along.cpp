#include "kernels/index_along.h"

#include <algorithm>
#include <atomic>
#include <type_traits>

#include "jt/functors.h"
#include "parallel.h"

namespace jt {
namespace {

// Every index value in range? Reads the index tensor over the dims where it is not broadcast, so
// each distinct index is read once however many slices share it; in parallel, and in order
// (serially) only when one is bad, to report the first.
template <typename I>
bool indices_valid(const AlongPlan& p, int64_t* bad) {
  int64_t shape[64], strides[64];
  int n = 0;
  int64_t count = 1;
  for (int k = 0; k < p.ndim; ++k) {
    if (p.shape[k] == 0) return true;  // nothing is read
    if (p.index_strides[k] != 0 && p.shape[k] != 1) {
      shape[n] = p.shape[k];
      strides[n++] = p.index_strides[k];
      count *= p.shape[k];
    }
  }
  const I* index = reinterpret_cast<const I*>(p.index);
  const int64_t size = p.dim_size;
  auto scan = [&](int64_t b, int64_t e, bool report) {
    int64_t pos[64], off = 0, rem = b;
    for (int k = n - 1; k >= 0; --k) {
      pos[k] = rem % shape[k];
      rem /= shape[k];
      off += pos[k] * strides[k];
    }
    for (int64_t i = b; i < e; ++i) {
      const int64_t v = index[off];
      if ((uint64_t)v >= (uint64_t)size) {  // negative too: see position()
        if (report) *bad = v;
        return false;
      }
      for (int k = n - 1; k >= 0; --k) {  // odometer step
        off += strides[k];
        if (++pos[k] < shape[k]) break;
        off -= strides[k] * shape[k];
        pos[k] = 0;
      }
    }
    return true;
  };
  std::atomic<bool> ok{true};
  parallel_for(0, count, kGrainSize, [&](int64_t b, int64_t e) {
    if (!scan(b, e, false)) ok.store(false);
  });
  return ok.load() || scan(0, count, true);
}

// Whether v is a position in [0, size). PyTorch's index_select, gather,
// scatter, scatter_add and index_add_ refuse negative indices (advanced indexing wraps them:
// index_advanced.cpp), so one unsigned compare serves.
inline bool position(int64_t v, int64_t size) {
  return (uint64_t)v < (uint64_t)size;
}

// Rows are every dim but the last; f(self_offset, other_offset) runs for elements [jb, je) of
// each of rows [rb, re). The inner loop has its common shapes spelled out so the compiler can vectorize them:
// one index per row (index_select) over unit strides, and one index per element (gather) over
// unit strides. Returns false at the first bad index, having written part of the rows.
template <typename I, typename F>
bool for_each_row(const AlongPlan& p, int64_t rb, int64_t re, int64_t jb, int64_t je, F&& f) {
  const int last = p.ndim - 1;
  const int64_t size = p.dim_size;
  const int64_t ss_dim = p.self_strides[p.dim];
  const int64_t ss_last = p.dim == last ? 0 : p.self_strides[last];
  const int64_t is_last = p.index_strides[last], os_last = p.other_strides[last];
  const I* index = reinterpret_cast<const I*>(p.index);
  for (int64_t r = rb; r < re; ++r) {
    int64_t rem = r, sb = 0, ib = 0, ob = 0;
    for (int k = last - 1; k >= 0; --k) {
      const int64_t c = rem % p.shape[k];
      rem /= p.shape[k];
      if (k != p.dim) sb += c * p.self_strides[k];
      ib += c * p.index_strides[k];
      ob += c * p.other_strides[k];
    }
    if (is_last == 0) {  // one index for the whole row
      const int64_t v = index[ib];
      if (!position(v, size)) return false;
      const int64_t s0 = sb + v * ss_dim;
      if (ss_last == 1 && os_last == 1) {
        for (int64_t j = jb; j < je; ++j) f(s0 + j, ob + j);
      } else {
        for (int64_t j = jb; j < je; ++j) f(s0 + j * ss_last, ob + j * os_last);
      }
    } else if (is_last == 1 && os_last == 1 && ss_last == 0) {  // an index per element, along the row
      const I* ip = index + ib;
      for (int64_t j = jb; j < je; ++j) {
        const int64_t v = ip[j];
        if (!position(v, size)) return false;
        f(sb + v * ss_dim, ob + j);
      }
    } else {
      for (int64_t j = jb; j < je; ++j) {
        const int64_t v = index[ib + j * is_last];
        if (!position(v, size)) return false;
        f(sb + v * ss_dim + j * ss_last, ob + j * os_last);
      }
    }
  }
  return true;
}

template <typename T>
T accumulate(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) return a || b;
  else if constexpr (std::is_integral<T>::value)  // two's complement wrap, as PyTorch, without signed overflow
    return (T)(std::make_unsigned_t<T>)((std::make_unsigned_t<T>)a + (std::make_unsigned_t<T>)b);
  else return (T)((opmath_t<T>)a + (opmath_t<T>)b);
}

template <typename T>
T multiply(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) return a && b;
  else if constexpr (std::is_integral<T>::value)  // wraps as PyTorch; unsigned, since int promotion could overflow
    return (T)(std::make_unsigned_t<T>)((uint64_t)(std::make_unsigned_t<T>)a * (uint64_t)(std::make_unsigned_t<T>)b);
  else return (T)((opmath_t<T>)a * (opmath_t<T>)b);
}

// PyTorch's scatter_reduce max/min: a NaN src replaces, a NaN self stays (std::max keeps a unless
// a < b), and ties keep self (-0 over 0); bool is or/and. Returns one of the operands unconverted.
template <typename T>
T extreme(T a, T b, bool max) {
  if constexpr (std::is_same<T, bool>::value) return max ? (a || b) : (a && b);
  else if constexpr (std::is_integral<T>::value) return max ? (a < b ? b : a) : (b < a ? b : a);
  else {
    const opmath_t<T> x = (opmath_t<T>)a, y = (opmath_t<T>)b;
    if (y != y) return b;
    return (max ? x < y : y < x) ? b : a;
  }
}

// Gather writes only other, the op's fresh output: indices are checked as they are read, and on
// a bad one the caller drops the output. Scatter and accumulate write self, which the caller
// sees: every index is checked first, so a bad one leaves self as it was.
template <typename T, typename I>
bool run(const AlongPlan& p) {
  T* self = reinterpret_cast<T*>(p.self);
  T* other = reinterpret_cast<T*>(p.other);
  int64_t rows = 1;
  for (int k = 0; k < p.ndim - 1; ++k) rows *= p.shape[k];
  const int64_t inner = p.shape[p.ndim - 1];
  if (p.mode == AlongMode::Gather) {  // each output element written once: parallel over rows, or along one
    auto copy = [self, other](int64_t s, int64_t o) { other[o] = self[s]; };
    std::atomic<bool> ok{true};
    if (rows == 1) {
      parallel_for(0, inner, kGrainSize, [&](int64_t b, int64_t e) {
        if (!for_each_row<I>(p, 0, 1, b, e, copy)) ok.store(false);
      });
    } else {
      const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, inner));
      parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
        if (!for_each_row<I>(p, b, e, 0, inner, copy)) ok.store(false);
      });
    }
    return ok.load();
  }
  // Checked again as they write (the caller checked every index first): another thread may change
  // an index between the passes, a race whose values are undefined but which must not write
  // outside self.
  if (p.mode == AlongMode::Scatter) {  // serial: with repeated positions the last write wins
    return for_each_row<I>(p, 0, rows, 0, inner, [self, other](int64_t s, int64_t o) { self[s] = other[o]; });
  }
  // serial, in index order: repeated positions all combine, the same way every run
  if (p.mode == AlongMode::Prod) {
    return for_each_row<I>(p, 0, rows, 0, inner, [self, other](int64_t s, int64_t o) {
      self[s] = multiply(load_elem(self + s), load_elem(other + o));
    });
  }
  if (p.mode == AlongMode::Amax || p.mode == AlongMode::Amin) {
    const bool max = p.mode == AlongMode::Amax;
    return for_each_row<I>(p, 0, rows, 0, inner, [self, other, max](int64_t s, int64_t o) {
      self[s] = extreme(load_elem(self + s), load_elem(other + o), max);
    });
  }
  return for_each_row<I>(p, 0, rows, 0, inner, [self, other](int64_t s, int64_t o) {
    self[s] = accumulate(load_elem(self + s), load_elem(other + o));
  });
}

// Gather and scatter only move bytes: one loop per element width. The reducing modes compute in
// the dtype. 0 done, 1 a bad index (gather), -1 no loop for the element size.
template <typename I>
int run_by_type(const AlongPlan& p) {
  if (p.mode != AlongMode::Gather && p.mode != AlongMode::Scatter) {
    bool ok = true;
    dispatch_dtype(p.dtype, [&](auto tag) { ok = run<typename decltype(tag)::type, I>(p); });
    return ok ? 0 : 1;
  }
  switch (dtype_size(p.dtype)) {
    case 1: return run<uint8_t, I>(p) ? 0 : 1;
    case 2: return run<uint16_t, I>(p) ? 0 : 1;
    case 4: return run<uint32_t, I>(p) ? 0 : 1;
    case 8: return run<uint64_t, I>(p) ? 0 : 1;
  }
  return -1;
}

}  // namespace

int index_along(const AlongPlan& p, int64_t* bad) {
  if (p.ndim < 1 || p.ndim > 64 || p.dim < 0 || p.dim >= p.ndim) return -1;
  if (p.index_dtype != DType::Int64 && p.index_dtype != DType::Int32) return -1;
  for (int k = 0; k < p.ndim; ++k)
    if (p.shape[k] == 0) return 0;
  const bool wide = p.index_dtype == DType::Int64;
  auto first_bad = [&] { return wide ? indices_valid<int64_t>(p, bad) : indices_valid<int32_t>(p, bad); };
  if (p.mode != AlongMode::Gather && !first_bad()) return 1;
  const int status = wide ? run_by_type<int64_t>(p) : run_by_type<int32_t>(p);
  if (status == 1) first_bad();  // report the first bad index in order, whichever thread met one
  return status;
}

}  // namespace jt
