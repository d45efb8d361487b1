// The per-thread logic of the indexing kernels (index_along.cu, index_advanced.cu) in JT_HOST_DEVICE
// functions that g++ compiles too, so tests/host/index_host_test.cpp runs it over an emulated grid.
// The semantics are the CPU's (native/src/kernels/index_along.h, index_advanced.h): an item is one
// element of the iteration shape; negative indices wrap; a bad index is reported as the first in
// the CPU's order, found by an atomic minimum of positions, and nothing is written to self.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "geometry.cuh"
#include "jt/dtype.h"
#include "jt/functors.h"

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace jt {
namespace cuda {

constexpr uint64_t kNoBad = ~(uint64_t)0;  // the first-bad word before any item reports
enum AlongModeCode { kGather = 0, kScatter = 1, kAccumulate = 2 };  // AlongMode's codes; its prod, amax and amin
// (scatterReduce, 3 to 5) have no CUDA loop: run_along answers JT_INVALID, and Java refuses them before

JT_HOST_DEVICE inline int64_t load_index(const char* base, bool wide, int64_t off) {
  return wide ? *reinterpret_cast<const int64_t*>(base + off) : (int64_t)*reinterpret_cast<const int32_t*>(base + off);
}

// v as a position in [0, size), wrapped when negative; false when outside [-size, size).
JT_HOST_DEVICE inline bool wrap_index(int64_t& v, int64_t size) {
  if ((uint64_t)v < (uint64_t)size) return true;
  if (v < -size || v >= size) return false;
  v += size;
  return true;
}

// Whether v is a position in [0, size): the along-one-dim ops refuse negative indices, as PyTorch's do.
JT_HOST_DEVICE inline bool in_range(int64_t v, int64_t size) { return (uint64_t)v < (uint64_t)size; }

// Keeps the lowest position reported: atomic on the device; on the host an emulated grid runs one
// item at a time.
JT_HOST_DEVICE inline void note_bad(uint64_t* word, uint64_t pos) {
#ifdef __CUDA_ARCH__
  atomicMin(reinterpret_cast<unsigned long long*>(word), (unsigned long long)pos);
#else
  if (pos < *word) *word = pos;
#endif
}

JT_HOST_DEVICE inline uint32_t cas_word(uint32_t* word, uint32_t expected, uint32_t desired) {
#ifdef __CUDA_ARCH__
  return atomicCAS(reinterpret_cast<unsigned*>(word), expected, desired);
#else
  const uint32_t old = *word;
  if (old == expected) *word = desired;
  return old;
#endif
}

// word with its sizeof(T)-byte lane at bit `shift` replaced by lane + v, summed as the CPU does
// (integers wrap, bool is or; a bool lane holding any nonzero byte reads true).
template <typename T>
JT_HOST_DEVICE uint32_t word_plus(uint32_t word, int shift, T v) {
  constexpr uint32_t mask = sizeof(T) == 1 ? 0xFFu : 0xFFFFu;
  const uint32_t bits = (word >> shift) & mask;
  T lane;
  std::memcpy(&lane, &bits, sizeof(T));  // little-endian: the low bytes
  const T sum = wrapping_add(load_elem(&lane), v);
  uint32_t out = 0;
  std::memcpy(&out, &sum, sizeof(T));
  return (word & ~(mask << shift)) | (out << shift);
}

// *p += v for 1- and 2-byte integers and bool, which have no atomic add: a compare-and-swap loop
// on the aligned 32-bit word holding the element (allocations are at least 4-byte granular).
template <typename T>
JT_HOST_DEVICE void add_in_word(T* p, T v) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  uint32_t* word = reinterpret_cast<uint32_t*>(addr & ~(uintptr_t)3);
  const int shift = (int)(addr & 3) * 8;
  uint32_t old = *word, seen;
  do {
    seen = old;
    old = cas_word(word, seen, word_plus(seen, shift, v));
  } while (old != seen);
}

template <typename T>
constexpr bool kNarrowInt = sizeof(T) < 4 && !std::is_same<T, Half>::value && !std::is_same<T, BFloat16>::value;

// *p += v with repeated positions all adding: the device's atomics (host: a plain add).
template <typename T>
JT_HOST_DEVICE void accumulate_at(T* p, T v) {
  if constexpr (kNarrowInt<T>) {
    add_in_word(p, v);
  } else {
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same<T, int32_t>::value) atomicAdd(reinterpret_cast<int*>(p), v);
    else if constexpr (std::is_same<T, int64_t>::value)  // two's complement: the unsigned add wraps alike
      atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
    else if constexpr (std::is_same<T, Half>::value) atomicAdd(reinterpret_cast<__half*>(p), __ushort_as_half(v.x));
    else if constexpr (std::is_same<T, BFloat16>::value)
      atomicAdd(reinterpret_cast<__nv_bfloat16*>(p), __ushort_as_bfloat16(v.x));
    else atomicAdd(p, v);  // float, double
#else
    *p = wrapping_add(*p, v);
#endif
  }
}

// ---- indexing along dim (gather, scatter, accumulate) ----

struct AlongArgs {
  int mode;                      // AlongModeCode
  DType dtype;                   // self's and other's
  bool wide;                     // int64 indices, else int32
  int64_t dim_size, dim_stride;  // self's size along dim, and its stride there in bytes
  char* self;
  const char* index;
  char* other;
  Geometry<3> g;      // the iteration shape: [0] self (0 along dim), [1] index, [2] other
  Geometry<1> check;  // the index alone, over the dims where it is not broadcast (read once each)
  int64_t n, nchecked;
};

// Item i: false when its index is out of range (then nothing is done).
template <typename T, int MODE>
JT_HOST_DEVICE bool along_item(const AlongArgs& a, int64_t i) {
  int64_t off[3];
  a.g.offsets(i, off);
  const int64_t v = load_index(a.index, a.wide, off[1]);
  if (!in_range(v, a.dim_size)) return false;
  T* s = reinterpret_cast<T*>(a.self + off[0] + v * a.dim_stride);
  T* o = reinterpret_cast<T*>(a.other + off[2]);
  if constexpr (MODE == kGather) *o = *s;
  else if constexpr (MODE == kScatter) *s = *o;
  else accumulate_at(s, load_elem(o));
  return true;
}

// Item i of the check walk: false when its index is out of range.
JT_HOST_DEVICE inline bool along_index_ok(const AlongArgs& a, int64_t i) {
  int64_t off;
  a.check.offsets(i, &off);
  return in_range(load_index(a.index, a.wide, off), a.dim_size);
}

// The index's byte offset at a reported position: of the check walk, or of the iteration shape.
inline int64_t along_index_offset(const AlongArgs& a, bool check_walk, uint64_t pos) {
  int64_t off[3];
  if (check_walk) {
    a.check.offsets((int64_t)pos, off);
    return off[0];
  }
  a.g.offsets((int64_t)pos, off);
  return off[1];
}

// ---- advanced indexing (get, put) ----

// K: the most index tensors these args hold (a small kernel for the common few, a large for any).
template <int K>
struct AdvancedArgs {
  bool put;
  DType dtype;
  int nindices;
  int64_t n;
  char* self;
  char* other;
  Geometry<2 + K> g;  // the result's shape: [0] self (0 where indices give the position), [1] other, [2 + j] index j
  const char* index[K];
  bool wide[K];
  int64_t size[K], self_stride[K];  // the indexed dim's size and self's stride there (bytes)
};

// The first `count` operands' byte offsets of flat position `linear` (Geometry::offsets, for
// fewer operands than the geometry holds).
template <int N>
JT_HOST_DEVICE void first_offsets(const Geometry<N>& g, int64_t linear, int count, int64_t* off) {
  for (int k = 0; k < count; ++k) off[k] = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
  for (int d = g.ndim - 1; d >= 0; --d) {
    const int64_t q = linear / g.size[d], i = linear - q * g.size[d];
    linear = q;
    for (int k = 0; k < count; ++k) off[k] += i * g.stride[k][d];
  }
}

// Item i: -1 when done, else the position of the first index tensor out of range (nothing done).
template <typename T, int K, bool PUT>
JT_HOST_DEVICE int advanced_item(const AdvancedArgs<K>& a, int64_t i) {
  int64_t off[2 + K];
  first_offsets(a.g, i, 2 + a.nindices, off);
  int64_t s = off[0];
  for (int j = 0; j < a.nindices; ++j) {
    int64_t v = load_index(a.index[j], a.wide[j], off[2 + j]);
    if (!wrap_index(v, a.size[j])) return j;
    s += v * a.self_stride[j];
  }
  if constexpr (!std::is_same<T, void>::value) {  // void: the check walk
    T* sp = reinterpret_cast<T*>(a.self + s);
    T* op = reinterpret_cast<T*>(a.other + off[1]);
    if (PUT) *sp = *op;
    else *op = *sp;
  }
  return -1;
}

// The position an advanced item reports: ordered as the CPU finds its first bad index (by item,
// then by index tensor).
template <int K>
JT_HOST_DEVICE uint64_t advanced_bad_key(const AdvancedArgs<K>& a, int64_t i, int j) {
  return (uint64_t)i * (uint64_t)a.nindices + (uint64_t)j;
}

}  // namespace cuda
}  // namespace jt
