// The CUDA random kernels' per-thread work (jtc_random), compiled by nvcc for the device and by
// g++ for the host tests: one thread per Philox block writes the block's 2 or 4 elements with
// jt/philox.h's formulas, the CPU's, so a seeded draw gives the CPU's bits.
#pragma once
#include <cstdint>
#include <cstring>

#include "geometry.cuh"
#include "jt/philox.h"
#include "jt/plans.h"

namespace jt {
namespace cuda {

struct RandomArgs {
  RandomDraw draw;
  char* dst;
  const char* p;   // BernoulliTensor: float64 probabilities
  Geometry<2> g;   // dst's and p's byte strides
  int64_t n;       // elements
  int64_t blocks;  // Philox blocks: ceil(n / elements per block)
  bool dense;      // dst walks its bytes in element order (and p too, for BernoulliTensor)
};

// From a random plan and the dtype's size; false when the plan cannot be run (unknown kind, more
// than kMaxDims dims of size > 1).
inline bool random_prepare(const random_plan& r, int64_t elem, RandomArgs& a) {
  a.draw = random_draw(r);
  if ((int)a.draw.kind < 0 || (int)a.draw.kind >= kNumRandomKinds || r.ndim < 0) return false;
  const int64_t* strides[2] = {r.dst_strides, r.p_strides};
  const int64_t elems[2] = {elem, 8};
  if (!a.g.build((int)r.ndim, r.sizes, strides, elems)) return false;
  a.n = 1;
  for (int d = 0; d < r.ndim; ++d) a.n *= r.sizes[d];
  const int per = random_block_elements(a.draw.kind);
  a.blocks = (a.n + per - 1) / per;
  a.dst = reinterpret_cast<char*>(r.dst);
  a.p = reinterpret_cast<const char*>(r.p);
  a.dense = a.g.dense(0, elem) && (a.draw.kind != RandomKind::BernoulliTensor || a.g.dense(1, 8));
  return true;
}

// Byte offsets of element e in dst ([0]) and p ([1]).
inline JT_HOST_DEVICE void random_offsets(const RandomArgs& a, int64_t e, int elem, int64_t off[2]) {
  if (a.dense) off[0] = e * elem, off[1] = e * 8;
  else a.g.offsets(e, off);
}

// A B-byte aligned store of B bytes.
template <int B>
struct alignas(B) Chunk {
  unsigned char b[B];
};
template <int B>
inline JT_HOST_DEVICE void store_chunks(char* to, const char* from, int bytes) {
  for (int i = 0; i < bytes; i += B) {
    Chunk<B> c;
    std::memcpy(c.b, from + i, B);
    *reinterpret_cast<Chunk<B>*>(to + i) = c;
  }
}
// bytes (a power of two times the element size) from `from` to `to`, in the widest aligned pieces
// of up to 16 bytes.
inline JT_HOST_DEVICE void store_vector(char* to, const char* from, int bytes, int elem) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(to);
  if (bytes % 16 == 0 && at % 16 == 0) store_chunks<16>(to, from, bytes);
  else if (bytes % 8 == 0 && at % 8 == 0) store_chunks<8>(to, from, bytes);
  else if (bytes % 4 == 0 && at % 4 == 0) store_chunks<4>(to, from, bytes);
  else if (bytes % 2 == 0 && at % 2 == 0 && elem <= 2) store_chunks<2>(to, from, bytes);
  else std::memcpy(to, from, (size_t)bytes);
}

// Thread `block`'s work: Philox block draw.counter + block, elements block * per .. + per - 1.
template <typename T>
inline JT_HOST_DEVICE void random_block(const RandomArgs& a, int64_t block) {
  const RandomKind kind = a.draw.kind;
  const int per = random_block_elements(kind);
  const int64_t first = block * per;
  const int count = a.n - first < per ? (int)(a.n - first) : per;
  uint32_t w[4];
  philox_block(a.draw.key, a.draw.counter + (uint64_t)block, w);
  T v[4];
  int64_t off[4][2];
  double radius = 0, trig[2] = {0, 0};  // Normal: the pair's radius, cos and sin, computed once
  if (kind == RandomKind::Normal) {
    const double angle = normal_angle(w);
    radius = normal_radius(w), trig[0] = fp::sin_cos(angle, false), trig[1] = fp::sin_cos(angle, true);
  }
#ifdef __CUDA_ARCH__
#pragma unroll  // a fixed 4 so that v and off stay in registers
#endif
  for (int j = 0; j < 4; ++j) {
    if (j >= count) break;
    random_offsets(a, first + j, (int)sizeof(T), off[j]);
    if (kind == RandomKind::Normal) {
      v[j] = convert<T, double>(normal_from(a.draw, radius, trig[j & 1]));
    } else {
      const double prob = kind == RandomKind::BernoulliTensor ? *reinterpret_cast<const double*>(a.p + off[j][1]) : 0.0;
      v[j] = random_element<T>(a.draw, w, j, prob);
    }
  }
  if (a.dense && count == per) {
    store_vector(a.dst + off[0][0], reinterpret_cast<const char*>(v), per * (int)sizeof(T), (int)sizeof(T));
  } else {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int j = 0; j < 4; ++j)
      if (j < count) *reinterpret_cast<T*>(a.dst + off[j][0]) = v[j];
  }
}

// BernoulliTensor's check of element e: its linear index when its p lies outside [0, 1], else -1.
inline JT_HOST_DEVICE int64_t random_bad_index(const RandomArgs& a, int64_t e) {
  int64_t off[2];
  random_offsets(a, e, 1, off);  // p's offset only: dst's element size does not matter
  return random_probability_ok(*reinterpret_cast<const double*>(a.p + off[1])) ? -1 : e;
}

}  // namespace cuda
}  // namespace jt
