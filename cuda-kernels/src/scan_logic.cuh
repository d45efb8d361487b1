// cumsum/cumprod on CUDA, the per-thread parts: a line scanned in order by one thread (many
// lines), and the plan read into kernel arguments. Host and device code (the host tests run them).
#pragma once
#include <cstdint>

#include "jt/functors.h"
#include "jt/plans.h"
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

}  // namespace cuda
}  // namespace jt
