// softmax/log_softmax on CUDA, the per-thread parts (host and device code; the host test runs
// them over an emulated grid): the plan read into kernel arguments, one thread's share of a line
// (elements first, first + stride, ...) folded into an OnlineSoftmax, and that share's outputs.
// A thread per line is the share with stride 1; a warp or block per line merges its threads'
// shares (softmax.cu) before writing, reading and writing 16-byte packs where the line allows.
#pragma once
#include <cstdint>

#include "jt/plans.h"
#include "jt/functors.h"
#include "jt/softmax_math.h"
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

// 16 bytes of elements, loaded and stored as one (a 128-bit access on the GPU).
template <typename T>
struct alignas(16) SoftmaxPack {
  static constexpr int kSize = 16 / (int)sizeof(T);
  T v[kSize];
};

// Whether the line at off can be read and written in whole packs: unit steps, 16-byte aligned
// starts, a length that is a multiple of the pack. The same for every thread of the line.
template <typename T>
JT_HOST_DEVICE bool softmax_packed(const SoftmaxArgs& a, const int64_t* off) {
  const int64_t e = (int64_t)sizeof(T);
  return a.lines.step[0] == e && a.lines.step[1] == e && a.lines.len % SoftmaxPack<T>::kSize == 0 &&
         reinterpret_cast<uintptr_t>(a.in + off[1]) % 16 == 0 && reinterpret_cast<uintptr_t>(a.out + off[0]) % 16 == 0;
}

// softmax_share over packs: packs first, first + stride, ... of a packed line.
template <typename T>
JT_HOST_DEVICE OnlineSoftmax<opmath_t<T>> softmax_share_packed(const SoftmaxArgs& a, const int64_t* off, int64_t first,
                                                               int64_t stride) {
  using A = opmath_t<T>;
  using P = SoftmaxPack<T>;
  OnlineSoftmax<A> acc;
  const P* in = reinterpret_cast<const P*>(a.in + off[1]);
  for (int64_t c = first; c < a.lines.len / P::kSize; c += stride) {
    const P p = in[c];
    for (int k = 0; k < P::kSize; ++k) acc.add((A)p.v[k]);
  }
  return acc;
}

template <typename T, bool Log>
JT_HOST_DEVICE void softmax_write_packed(const SoftmaxArgs& a, const int64_t* off, int64_t first, int64_t stride,
                                         opmath_t<T> max, opmath_t<T> sum) {
  using A = opmath_t<T>;
  using P = SoftmaxPack<T>;
  const A k = softmax_scale<Log>(sum);
  const P* in = reinterpret_cast<const P*>(a.in + off[1]);
  P* out = reinterpret_cast<P*>(a.out + off[0]);
  for (int64_t c = first; c < a.lines.len / P::kSize; c += stride) {
    const P p = in[c];
    P q;
    for (int j = 0; j < P::kSize; ++j) q.v[j] = (T)softmax_value<Log>((A)p.v[j], max, k);
    out[c] = q;
  }
}

// A packed line short enough for each thread's share to stay in registers (kCachedPacks packs per
// thread) is read once: the write pass works from those registers instead of reading it again.
constexpr int kCachedPacks = 8;

template <typename T>
JT_HOST_DEVICE bool softmax_cacheable(const SoftmaxArgs& a, bool packed, int64_t threads) {
  return packed && a.lines.len / SoftmaxPack<T>::kSize <= threads * kCachedPacks;
}

// softmax_share_packed, keeping pack j of the share (first + j * stride) in cache[j].
template <typename T>
JT_HOST_DEVICE OnlineSoftmax<opmath_t<T>> softmax_share_cached(const SoftmaxArgs& a, const int64_t* off, int64_t first,
                                                               int64_t stride, SoftmaxPack<T>* cache) {
  using A = opmath_t<T>;
  using P = SoftmaxPack<T>;
  OnlineSoftmax<A> acc;
  const P* in = reinterpret_cast<const P*>(a.in + off[1]);
  const int64_t packs = a.lines.len / P::kSize;
#ifdef __CUDA_ARCH__  // the device pass; host compilers do not know the pragma
#pragma unroll
#endif
  for (int j = 0; j < kCachedPacks; ++j) {  // unrolled: cache[j] is a register
    const int64_t c = first + j * stride;
    if (c < packs) {
      cache[j] = in[c];
      for (int k = 0; k < P::kSize; ++k) acc.add((A)cache[j].v[k]);
    }
  }
  return acc;
}

template <typename T, bool Log>
JT_HOST_DEVICE void softmax_write_cached(const SoftmaxArgs& a, const int64_t* off, int64_t first, int64_t stride,
                                         const SoftmaxPack<T>* cache, opmath_t<T> max, opmath_t<T> sum) {
  using A = opmath_t<T>;
  using P = SoftmaxPack<T>;
  const A k = softmax_scale<Log>(sum);
  P* out = reinterpret_cast<P*>(a.out + off[0]);
  const int64_t packs = a.lines.len / P::kSize;
#ifdef __CUDA_ARCH__  // the device pass; host compilers do not know the pragma
#pragma unroll
#endif
  for (int j = 0; j < kCachedPacks; ++j) {
    const int64_t c = first + j * stride;
    if (c < packs) {
      P q;
      for (int i = 0; i < P::kSize; ++i) q.v[i] = (T)softmax_value<Log>((A)cache[j].v[i], max, k);
      out[c] = q;
    }
  }
}

// A group's thread's share of the line at off, in packs where the line allows (packed), else by element.
template <typename T>
JT_HOST_DEVICE OnlineSoftmax<opmath_t<T>> softmax_group_share(const SoftmaxArgs& a, const int64_t* off, bool packed,
                                                              int64_t first, int64_t stride) {
  return packed ? softmax_share_packed<T>(a, off, first, stride) : softmax_share<T>(a, off, first, stride);
}

template <typename T, bool Log>
JT_HOST_DEVICE void softmax_group_write(const SoftmaxArgs& a, const int64_t* off, bool packed, int64_t first, int64_t stride,
                                        opmath_t<T> max, opmath_t<T> sum) {
  if (packed) softmax_write_packed<T, Log>(a, off, first, stride, max, sum);
  else softmax_write<T, Log>(a, off, first, stride, max, sum);
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
