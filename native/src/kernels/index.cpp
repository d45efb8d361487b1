// Gather, scatter and accumulate by element offsets: the byte movers behind advanced indexing.
// Java computes the offsets from checked indices; every offset is checked here again against the
// storage around the base address before a byte moves, so no caller can reach outside it.
#include <cstring>
#include <type_traits>

#include "jt/functors.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

bool all_within(const int64_t* offsets, int64_t n, int64_t lo, int64_t hi) {
  for (int64_t i = 0; i < n; ++i)
    if (offsets[i] < lo || offsets[i] >= hi) return false;
  return true;
}

template <typename T>
void gather_typed(T* dst, const T* src, const int64_t* offsets, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = src[offsets[i]];
  });
}

template <typename T>
void scatter_typed(T* dst, const int64_t* offsets, const T* src, int64_t n) {
  // Serial: with repeated offsets the last write must win, as a sequential loop gives.
  for (int64_t i = 0; i < n; ++i) dst[offsets[i]] = src[i];
}

template <typename T>
void accumulate_typed(T* dst, const int64_t* offsets, const T* src, int64_t n) {
  using A = opmath_t<T>;
  for (int64_t i = 0; i < n; ++i) {  // serial: repeated offsets must all add
    if constexpr (std::is_same<T, bool>::value) dst[offsets[i]] = dst[offsets[i]] || src[i];
    else if constexpr (std::is_integral<T>::value)  // two's complement wrap, as PyTorch, without signed overflow
      dst[offsets[i]] = (T)(std::make_unsigned_t<T>)((std::make_unsigned_t<T>)dst[offsets[i]] + (std::make_unsigned_t<T>)src[i]);
    else dst[offsets[i]] = (T)((A)dst[offsets[i]] + (A)src[i]);
  }
}

// Runs f on the unsigned type of elem_size bytes: gather and scatter only move bytes.
template <typename F>
bool by_size(int elem_size, F&& f) {
  switch (elem_size) {
    case 1: f(uint8_t{}); return true;
    case 2: f(uint16_t{}); return true;
    case 4: f(uint32_t{}); return true;
    case 8: f(uint64_t{}); return true;
  }
  return false;
}

}  // namespace

bool index_gather(void* dst, const void* src, int elem_size, const int64_t* offsets, int64_t n, int64_t lo, int64_t hi) {
  if (!all_within(offsets, n, lo, hi)) return false;
  return by_size(elem_size, [&](auto t) {
    using T = decltype(t);
    gather_typed(static_cast<T*>(dst), static_cast<const T*>(src), offsets, n);
  });
}

bool index_scatter(void* dst, int elem_size, const int64_t* offsets, const void* src, int64_t n, int64_t lo, int64_t hi) {
  if (!all_within(offsets, n, lo, hi)) return false;
  return by_size(elem_size, [&](auto t) {
    using T = decltype(t);
    scatter_typed(static_cast<T*>(dst), offsets, static_cast<const T*>(src), n);
  });
}

bool index_accumulate(void* dst, DType dtype, const int64_t* offsets, const void* src, int64_t n, int64_t lo, int64_t hi) {
  if (!all_within(offsets, n, lo, hi)) return false;
  switch (dtype) {
#define JT_CASE(ctype, name) \
  case DType::name: accumulate_typed(static_cast<ctype*>(dst), offsets, static_cast<const ctype*>(src), n); return true;
    JT_FORALL_DTYPES(JT_CASE)
#undef JT_CASE
  }
  return false;
}

}  // namespace jt
