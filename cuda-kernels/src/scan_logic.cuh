// cumsum/cumprod (and cummax, cummin, logcumsumexp) on CUDA, the per-thread parts: a line scanned in order by one thread (many
// lines), and the plan read into kernel arguments. Host and device code (the host tests run them).
#pragma once
#include <cstdint>
#include <limits>

#include "jt/functors.h"
#include "jt/plans.h"
#include "jt/scan_ordered_math.h"
#include "jt/scan_types.h"
#include "lines.cuh"

namespace jt {
namespace cuda {

struct ScanArgs {
  const char* in;
  char* out;
  Lines<2> lines;  // [0] out, [1] in
  bool prod;
};

// False for a plan no kernel can run (the caller answers JT_INVALID).
inline bool prepare_scan(const scan_plan& r, ScanArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype) || !valid_dtype((int)r.out_dtype)) return false;
  const int64_t elem[2] = {(int64_t)dtype_size((DType)r.out_dtype), (int64_t)dtype_size((DType)r.dtype)};
  const int64_t* strides[2] = {r.out_strides, r.in_strides};
  a.in = reinterpret_cast<const char*>(r.in);
  a.out = reinterpret_cast<char*>(r.out);
  a.prod = r.op != 0;
  return a.lines.build((int)r.ndim, (int)r.dim, r.sizes, strides, elem);
}

template <typename A, bool Prod>
JT_HOST_DEVICE inline A scan_combine(A acc, A v) { return Prod ? acc * v : acc + v; }

// Line l, element by element in order: what one thread does when there are many lines.
template <typename T, bool Prod>
JT_HOST_DEVICE void scan_line(const ScanArgs& a, int64_t l) {
  using A = typename ScanTypes<T>::A;
  using O = typename ScanTypes<T>::O;
  int64_t off[2];
  a.lines.start(l, off);
  A acc = Prod ? A(1) : A(0);
  for (int64_t i = 0; i < a.lines.len; ++i) {
    acc = scan_combine<A, Prod>(acc, (A)load_elem(reinterpret_cast<const T*>(a.in + off[1] + i * a.lines.step[1])));
    *reinterpret_cast<O*>(a.out + off[0] + i * a.lines.step[0]) = (O)acc;
  }
}

// cummax (op 2), cummin (3), logcumsumexp (4): a thread per line, element by element.
struct OrderedScanArgs {
  const char* in;
  char* out;
  char* indices;  // cummax/cummin's int64 positions
  Lines<3> lines;  // [0] out, [1] in, [2] indices
  int op;
};

inline bool prepare_ordered_scan(const scan_plan& r, OrderedScanArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype) || r.out_dtype != r.dtype || r.op < 2 || r.op > 4) return false;
  const bool indexed = r.op != 4;
  if (indexed && r.indices == 0) return false;
  const int64_t es = (int64_t)dtype_size((DType)r.dtype), elem[3] = {es, es, indexed ? 8 : 0};
  const int64_t* strides[3] = {r.out_strides, r.in_strides, r.indices_strides};
  a.in = reinterpret_cast<const char*>(r.in);
  a.out = reinterpret_cast<char*>(r.out);
  a.indices = reinterpret_cast<char*>(r.indices);
  a.op = (int)r.op;
  return a.lines.build((int)r.ndim, (int)r.dim, r.sizes, strides, elem);
}

template <typename T, bool Max>
JT_HOST_DEVICE void cum_extreme_line(const OrderedScanArgs& a, int64_t l) {
  using V = opmath_t<T>;
  int64_t off[3];
  a.lines.start(l, off);
  T best = load_elem(reinterpret_cast<const T*>(a.in + off[1]));
  int64_t at = 0;
  for (int64_t i = 0; i < a.lines.len; ++i) {
    const T x = load_elem(reinterpret_cast<const T*>(a.in + off[1] + i * a.lines.step[1]));
    if (cum_extreme_takes<Max, V>((V)x, (V)best)) {
      best = x;
      at = i;
    }
    *reinterpret_cast<T*>(a.out + off[0] + i * a.lines.step[0]) = best;
    *reinterpret_cast<int64_t*>(a.indices + off[2] + i * a.lines.step[2]) = at;
  }
}

// In the CUDA scan's accumulator (ScanTypes::A: float for float32, as PyTorch's CUDA opmath).
template <typename T>
JT_HOST_DEVICE void logcumsumexp_line(const OrderedScanArgs& a, int64_t l) {
  using A = typename ScanTypes<T>::A;
  int64_t off[3];
  a.lines.start(l, off);
  A acc = -std::numeric_limits<A>::infinity();
  for (int64_t i = 0; i < a.lines.len; ++i) {
    acc = log_add_exp<A>((A)load_elem(reinterpret_cast<const T*>(a.in + off[1] + i * a.lines.step[1])), acc);
    *reinterpret_cast<T*>(a.out + off[0] + i * a.lines.step[0]) = (T)acc;
  }
}

template <typename T>
JT_HOST_DEVICE void ordered_scan_line(const OrderedScanArgs& a, int64_t l) {
  if (a.op == 2) cum_extreme_line<T, true>(a, l);
  else if (a.op == 3) cum_extreme_line<T, false>(a, l);
  else if constexpr (is_floating<T>::value) logcumsumexp_line<T>(a, l);
}

}  // namespace cuda
}  // namespace jt
