#include "kernels/index_along.h"

#include <type_traits>

#include "jt/functors.h"
#include "parallel.h"

namespace jt {
namespace {

template <typename I>
int64_t load_index(const char* base, int64_t offset) {
  return (int64_t) reinterpret_cast<const I*>(base)[offset];
}

// The index tensor's positions, over the dims where it is not broadcast: validation reads each
// distinct index once, however many slices share it.
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
  int64_t pos[64] = {0};
  int64_t off = 0;
  for (int64_t e = 0; e < count; ++e) {
    const int64_t v = load_index<I>(p.index, off);
    if (v < -p.dim_size || v >= p.dim_size) {
      *bad = v;
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
}

// Rows are every dim but the last; f(self_offset, other_offset) runs for each element of rows [rb, re).
template <typename I, typename F>
void for_each_row(const AlongPlan& p, int64_t rb, int64_t re, F&& f) {
  const int last = p.ndim - 1;
  const int64_t inner = p.shape[last];
  const int64_t ss_dim = p.self_strides[p.dim];
  const int64_t ss_last = p.dim == last ? 0 : p.self_strides[last];
  const int64_t is_last = p.index_strides[last], os_last = p.other_strides[last];
  for (int64_t r = rb; r < re; ++r) {
    int64_t rem = r, sb = 0, ib = 0, ob = 0;
    for (int k = last - 1; k >= 0; --k) {
      const int64_t c = rem % p.shape[k];
      rem /= p.shape[k];
      if (k != p.dim) sb += c * p.self_strides[k];
      ib += c * p.index_strides[k];
      ob += c * p.other_strides[k];
    }
    for (int64_t j = 0; j < inner; ++j) {
      int64_t v = load_index<I>(p.index, ib + j * is_last);
      if (v < 0) v += p.dim_size;
      f(sb + v * ss_dim + j * ss_last, ob + j * os_last);
    }
  }
}

template <typename T>
T accumulate(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) return a || b;
  else if constexpr (std::is_integral<T>::value)  // two's complement wrap, as PyTorch, without signed overflow
    return (T)(std::make_unsigned_t<T>)((std::make_unsigned_t<T>)a + (std::make_unsigned_t<T>)b);
  else return (T)((opmath_t<T>)a + (opmath_t<T>)b);
}

template <typename T, typename I>
void run(const AlongPlan& p) {
  T* self = reinterpret_cast<T*>(p.self);
  T* other = reinterpret_cast<T*>(p.other);
  int64_t rows = 1;
  for (int k = 0; k < p.ndim - 1; ++k) rows *= p.shape[k];
  if (p.mode == AlongMode::Gather) {  // each output element written once: parallel over rows
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, p.shape[p.ndim - 1]));
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      for_each_row<I>(p, b, e, [&](int64_t s, int64_t o) { other[o] = self[s]; });
    });
  } else if (p.mode == AlongMode::Scatter) {  // serial: with repeated positions the last write wins
    for_each_row<I>(p, 0, rows, [&](int64_t s, int64_t o) { self[s] = other[o]; });
  } else {  // serial: repeated positions must all add
    for_each_row<I>(p, 0, rows, [&](int64_t s, int64_t o) { self[s] = accumulate(self[s], other[o]); });
  }
}

// Gather and scatter only move bytes: one loop per element width. Accumulate adds in the dtype.
template <typename I>
bool run_by_type(const AlongPlan& p) {
  if (p.mode == AlongMode::Accumulate) {
    dispatch_dtype(p.dtype, [&](auto tag) { run<typename decltype(tag)::type, I>(p); });
    return true;
  }
  switch (dtype_size(p.dtype)) {
    case 1: run<uint8_t, I>(p); return true;
    case 2: run<uint16_t, I>(p); return true;
    case 4: run<uint32_t, I>(p); return true;
    case 8: run<uint64_t, I>(p); return true;
  }
  return false;
}

}  // namespace

int index_along(const AlongPlan& p, int64_t* bad) {
  if (p.ndim < 1 || p.ndim > 64 || p.dim < 0 || p.dim >= p.ndim) return -1;
  if (p.index_dtype != DType::Int64 && p.index_dtype != DType::Int32) return -1;
  for (int k = 0; k < p.ndim; ++k)
    if (p.shape[k] == 0) return 0;
  const bool wide = p.index_dtype == DType::Int64;
  if (!(wide ? indices_valid<int64_t>(p, bad) : indices_valid<int32_t>(p, bad))) return 1;
  return (wide ? run_by_type<int64_t>(p) : run_by_type<int32_t>(p)) ? 0 : -1;
}

}  // namespace jt
