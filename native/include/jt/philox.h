// Philox4x32-10 and the random draws' per-element formulas, compiled by g++ (native/src/kernels/
// vectorized/random.cpp) and nvcc (cuda-kernels/src/random.cu) so that a seeded draw gives the same bits on
// every backend; the normal kind's arithmetic is jt/reproducible_math.h's.
#pragma once
#include <cstdint>
#include <cstring>

#include "jt/dtype.h"
#include "jt/plans.h"
#include "jt/reproducible_math.h"

namespace jt {

// The draw kinds, found by name from Java (jt_random_kind); element e's block and words:
enum class RandomKind : int {
  Uniform53 = 0,        // a + (b - a) * u, u from words (0,1) or (2,3) of block e / 2: 53 bits (into
                        // float32/float16/bfloat16: the top 24/11/8 bits of word 0 or 2)
  Uniform24 = 1,        // (word e % 4 of block e / 4) >> 8, times 2^-24, as a float
  Normal = 2,           // a + b * Box-Muller(block e / 2): cos for even e, sin for odd
  Integers = 3,         // low + (64 bits of words (0,1) or (2,3) of block e / 2) mod range, unsigned
  Bernoulli = 4,        // u < a ? 1 : 0 (u as Uniform53)
  BernoulliTensor = 5,  // u < p[e] ? 1 : 0, every p checked to lie in [0, 1] first
};
constexpr int kNumRandomKinds = 6;

// What an element's value depends on besides its block's words.
struct RandomDraw {
  RandomKind kind;
  uint64_t key, counter;  // the Philox key (the seed) and the first block's counter
  double a, b;            // the kind's parameters
  int64_t low, range;     // Integers: a and b's bits, as int64
};

// A random plan's draw: a and b are doubles' bits, or for Integers low and the range.
inline RandomDraw random_draw(const random_plan& r) {
  RandomDraw d;
  d.kind = (RandomKind)r.kind;
  d.key = (uint64_t)r.key;
  d.counter = (uint64_t)r.counter;
  std::memcpy(&d.a, &r.a, 8);
  std::memcpy(&d.b, &r.b, 8);
  d.low = r.a;
  d.range = r.b;
  return d;
}

// Elements per Philox block: element e lies in block e / n at word group e % n.
inline JT_HOST_DEVICE int random_block_elements(RandomKind k) { return k == RandomKind::Uniform24 ? 4 : 2; }

inline JT_HOST_DEVICE bool random_probability_ok(double p) { return p >= 0 && p <= 1; }

// The four words of Philox block `counter` under `key`.
inline JT_HOST_DEVICE void philox_block(uint64_t key, uint64_t counter, uint32_t out[4]) {
  const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  JT_UNROLL
  for (int r = 0; r < 10; ++r) {
    const uint64_t p0 = (uint64_t)M0 * c0, p1 = (uint64_t)M1 * c2;
    const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += W0;
    k1 += W1;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

// u in [0, 1) from 53 of the 64 bits hi:lo.
inline JT_HOST_DEVICE double philox_bits53(uint32_t hi, uint32_t lo) {
  return (double)((((uint64_t)hi << 32) | lo) >> 11) * 0x1.0p-53;  // exact
}

// Box-Muller's radius sqrt(-2 log(1 - u)) and angle 2 pi u' of a normal pair from block words w.
inline JT_HOST_DEVICE double normal_radius_of(double u) {
  return fp::sqrt(fp::mul(-2.0, fp::log(fp::sub(1.0, u))));  // 1 - u is in (0, 1]
}
inline JT_HOST_DEVICE double normal_radius(const uint32_t w[4]) { return normal_radius_of(philox_bits53(w[0], w[1])); }
inline JT_HOST_DEVICE double normal_angle(const uint32_t w[4]) {
  return fp::mul(2.0 * 3.14159265358979323846, philox_bits53(w[2], w[3]));
}
// a + b * (radius * trig), trig = cos(angle) for element 0 of a normal pair and sin(angle) for 1
inline JT_HOST_DEVICE double normal_from(const RandomDraw& d, double radius, double trig) {
  return fp::add(d.a, fp::mul(d.b, fp::mul(radius, trig)));
}
inline JT_HOST_DEVICE double normal_value(const RandomDraw& d, double radius, double angle, int j) {
  return normal_from(d, radius, fp::sin_cos(angle, j & 1));
}

// Element j of a block with words w as a double, or for Integers as an exact int64 in *exact;
// prob: BernoulliTensor's p for this element.
inline JT_HOST_DEVICE double random_value(const RandomDraw& d, const uint32_t w[4], int j, double prob, int64_t* exact) {
  if (d.kind == RandomKind::Uniform24) return (double)((float)(w[j & 3] >> 8) * 0x1.0p-24f);
  if (d.kind == RandomKind::Normal) return normal_value(d, normal_radius(w), normal_angle(w), j);
  const uint32_t hi = (j & 1) ? w[2] : w[0], lo = (j & 1) ? w[3] : w[1];
  switch (d.kind) {
    case RandomKind::Uniform53: return fp::add(d.a, fp::mul(fp::sub(d.b, d.a), philox_bits53(hi, lo)));
    case RandomKind::Integers:
      *exact = (int64_t)((uint64_t)d.low + ((((uint64_t)hi << 32) | lo) % (uint64_t)d.range));
      return 0;
    case RandomKind::Bernoulli: return philox_bits53(hi, lo) < d.a ? 1.0 : 0.0;
    default: return philox_bits53(hi, lo) < prob ? 1.0 : 0.0;  // BernoulliTensor
  }
}

// Significand bits of a floating T (53 for the rest): a uniform draw into T takes only these, as
// PyTorch's uniform_real_distribution does, so that u is exact in T and rand stays below 1.
template <typename T>
constexpr int kUniformDigits = std::is_same<T, Half>::value ? 11 : std::is_same<T, BFloat16>::value ? 8
                             : std::is_same<T, float>::value ? 24 : 53;

// The same, converted to the draw's dtype T as every backend stores it.
// A uniform value that rounded up to `to` in T is `from` instead, so that a draw stays in [from, to)
// (PyTorch's CPU uniform_kernel does the same: uniform_(100, 101) in float16 rounded 3% of its draws to 101).
template <typename T>
inline JT_HOST_DEVICE T uniform_below_to(const RandomDraw& d, T v) {
  return convert<double, T>(v) == convert<double, T>(convert<T, double>(d.b)) ? convert<T, double>(d.a) : v;
}

template <typename T>
inline JT_HOST_DEVICE T random_element(const RandomDraw& d, const uint32_t w[4], int j, double prob) {
  if (kUniformDigits<T> < 53 && d.kind == RandomKind::Uniform53) {  // the top digits of words 0 or 2
    const double u = (double)(((j & 1) ? w[2] : w[0]) >> (32 - kUniformDigits<T>)) / (double)(1u << kUniformDigits<T>);  // exact
    return uniform_below_to<T>(d, convert<T, double>(fp::add(d.a, fp::mul(fp::sub(d.b, d.a), u))));
  }
  int64_t exact = 0;
  const double v = random_value(d, w, j, prob, &exact);
  if (d.kind == RandomKind::Uniform53) return uniform_below_to<T>(d, convert<T, double>(v));
  return d.kind == RandomKind::Integers ? convert<T, int64_t>(exact) : convert<T, double>(v);
}

}  // namespace jt
