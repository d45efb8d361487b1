// softmax/log_softmax on CUDA, the per-thread parts (host and device code; the host test runs
// them over an emulated grid): the plan read into kernel arguments, one thread's share of a line
// (elements first, first + stride, ...) folded into an OnlineSoftmax, and that share's outputs.
// A thread per line is the share with stride 1; a warp or block per line merges its threads'
// shares (softmax.cu) before writing.
#pragma once
#include <cstdint>

#include "jt/plans.h"
#include "jt/functors.h"
#include "kernels/softmax_math.h"
#include "lines.cuh"

namespace jt {
namespace cuda {

struct SoftmaxArgs {
  const char* in;
  char* out;
  Lines<2> lines;  // [0] out, [1] in
  bool log;
};

// False for a plan no kernel can run (the caller answers JT_INVALID).
inline bool prepare_softmax(const softmax_plan& r, SoftmaxArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype)) return false;
  const int64_t e = (int64_t)dtype_size((DType)r.dtype), elem[2] = {e, e};
  const int64_t* strides[2] = {r.out_strides, r.in_strides};
  a.in = reinterpret_cast<const char*>(r.in);
  a.out = reinterpret_cast<char*>(r.out);
  a.log = r.log != 0;
  return a.lines.build((int)r.ndim, (int)r.dim, r.sizes, strides, elem);
}

// Elements first, first + stride, ... of the line at off: their max and sum of exp(x - max).
template <typename T>
JT_HOST_DEVICE OnlineSoftmax<opmath_t<T>> softmax_share(const SoftmaxArgs& a, const int64_t* off, int64_t first, int64_t stride) {
  using A = opmath_t<T>;
  OnlineSoftmax<A> acc;
  const char* in = a.in + off[1];
  for (int64_t i = first; i < a.lines.len; i += stride) acc.add((A)load_elem(reinterpret_cast<const T*>(in + i * a.lines.step[1])));
  return acc;
}

// The outputs of the same elements, from the whole line's max and finished sum.
template <typename T, bool Log>
JT_HOST_DEVICE void softmax_write(const SoftmaxArgs& a, const int64_t* off, int64_t first, int64_t stride,
                                  opmath_t<T> max, opmath_t<T> sum) {
  using A = opmath_t<T>;
  const A k = softmax_scale<Log>(sum);
  const char* in = a.in + off[1];
  char* out = a.out + off[0];
  for (int64_t i = first; i < a.lines.len; i += stride) {
    const A x = (A)load_elem(reinterpret_cast<const T*>(in + i * a.lines.step[1]));
    *reinterpret_cast<T*>(out + i * a.lines.step[0]) = (T)softmax_value<Log>(x, max, k);
  }
}

// Line l by one thread: what the kernel does when there are many lines along a non-innermost dim
// (neighbouring threads read neighbouring lines, coalesced).
template <typename T, bool Log>
JT_HOST_DEVICE void softmax_line(const SoftmaxArgs& a, int64_t l) {
  int64_t off[2];
  a.lines.start(l, off);
  const auto acc = softmax_share<T>(a, off, 0, 1);
  softmax_write<T, Log>(a, off, 0, 1, acc.max, acc.finished_sum());
}

}  // namespace cuda
}  // namespace jt
