// Philox4x32-10 and the random draws' per-element formulas, compiled by g++ (native/src/kernels/
// random.cpp) and nvcc (cuda-kernels/src/random.cu) so that a seeded draw gives the same bits on
// every backend. The normal kind's log, sin and cos are computed here from + - * / and sqrt alone,
// each correctly rounded on both and never fused into an FMA (the device side calls the _rn
// intrinsics; the host side is compiled with -ffp-contract=off): glibc's and CUDA's libm differ in
// the last bit.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "jt/dtype.h"
#include "jt/plans.h"

namespace jt {

// The draw kinds, found by name from Java (jt_random_kind); element e's block and words:
enum class RandomKind : int {
  Uniform53 = 0,        // a + (b - a) * u, u from words (0,1) or (2,3) of block e / 2: 53 bits
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

// IEEE double operations, one rounding each (to nearest even), never contracted on the device.
namespace fp {
inline JT_HOST_DEVICE double add(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
inline JT_HOST_DEVICE double sub(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
inline JT_HOST_DEVICE double mul(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
inline JT_HOST_DEVICE double div(double a, double b) {
#ifdef __CUDA_ARCH__
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
inline JT_HOST_DEVICE double sqrt(double a) {
#ifdef __CUDA_ARCH__
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
// p[0] + z * (p[1] + z * (... + z * p[n - 1])), Horner's rule
template <int N>
inline JT_HOST_DEVICE double horner(double z, const double (&p)[N]) {
  double acc = p[N - 1];
  for (int i = N - 2; i >= 0; --i) acc = add(p[i], mul(z, acc));
  return acc;
}
}  // namespace fp

// a + b as hi + lo exactly (Knuth's two-sum).
inline JT_HOST_DEVICE void two_sum(double a, double b, double& hi, double& lo) {
  hi = fp::add(a, b);
  const double bb = fp::sub(hi, a);
  lo = fp::add(fp::sub(a, fp::sub(hi, bb)), fp::sub(b, bb));
}

// a = hi + lo with hi holding a's upper 26 bits (Veltkamp's split)
inline JT_HOST_DEVICE void split26(double a, double& hi, double& lo) {
  const double c = fp::mul(0x1.0000002p+27, a);  // 2^27 + 1
  hi = fp::sub(c, fp::sub(c, a));
  lo = fp::sub(a, hi);
}
// a * b as hi + lo exactly, without an FMA (Dekker's product)
inline JT_HOST_DEVICE void two_prod(double a, double b, double& hi, double& lo) {
  double ah, al, bh, bl;
  split26(a, ah, al);
  split26(b, bh, bl);
  hi = fp::mul(a, b);
  lo = fp::add(fp::add(fp::add(fp::sub(fp::mul(ah, bh), hi), fp::mul(ah, bl)), fp::mul(al, bh)), fp::mul(al, bl));
}

// log(x) for a positive normal finite x, within 0.52 ulp: x = 2^k (1 + f) with sqrt(1/2) <= 1 + f
// < sqrt(2), log(1 + f) = 2 atanh(s) for s = f / (2 + f), written as f - f^2/2 + s (f^2/2 + R(s^2))
// where f is exact, f^2 is exact as Dekker's product and the sums up to k log(2) are carried in
// two doubles, so the result is rounded about once.
inline JT_HOST_DEVICE double philox_log(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  int k = (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0xfffffffffffffull) | 0x3ff0000000000000ull;  // the mantissa m, in [1, 2)
  double m;
  std::memcpy(&m, &bits, 8);
  if (m > 0x1.6a09e667f3bcdp+0) m = fp::mul(m, 0.5), ++k;  // sqrt(2)
  const double f = fp::sub(m, 1.0);                           // exact (Sterbenz)
  const double s = fp::div(f, fp::add(2.0, f)), z = fp::mul(s, s);
  // 2/3, 2/5, ..., 2/23: atanh's Taylor terms after the first, |s| <= 0.1716 so z^11 / 23 < 2^-58
  const double c[11] = {0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
                        0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
                        0x1.af286bca1af28p-4, 0x1.8618618618618p-4, 0x1.642c8590b2164p-4};
  const double R = fp::mul(z, fp::horner(z, c));
  double sq, sq_lo;
  two_prod(f, f, sq, sq_lo);
  const double hfsq = fp::mul(0.5, sq), hfsq_lo = fp::mul(0.5, sq_lo);
  const double corr = fp::mul(s, fp::add(hfsq, R));
  double a_hi, a_lo, k_hi, k_lo;
  two_sum(f, -hfsq, a_hi, a_lo);
  const double dk = (double)k;
  const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c76730p-45;  // ln2_hi * k is exact
  two_sum(fp::mul(dk, ln2_hi), a_hi, k_hi, k_lo);
  const double lo = fp::add(a_lo, fp::sub(corr, hfsq_lo));
  return fp::add(k_hi, fp::add(k_lo, fp::add(lo, fp::mul(dk, ln2_lo))));
}

// sin(r + rlo) and cos(r + rlo) for |r| <= pi/4 (a little beyond is fine) and rlo below half an
// ulp of r, by Taylor polynomials through r^19 and r^18, whose truncation is below 2^-56 of the
// result; rlo enters to first order (+ rlo cos(r), - rlo sin(r)). The terms r^3 / 6 and r^2 / 2,
// up to 8% and 31% of the result, are carried in two doubles so that it is rounded about once.
inline JT_HOST_DEVICE double philox_sin_kernel(double r, double rlo) {
  const double c[8] = {0x1.1111111111111p-7,   -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
                       -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,  -0x1.ae7f3e733b81fp-41,
                       0x1.952c77030ad4ap-49,  -0x1.2f49b46814157p-57};  // 1/5!, -1/7!, ..., -1/19!
  const double sixth_hi = -0x1.5555555555555p-3, sixth_lo = -0x1.5555555555555p-57;  // -1/6
  double z, z_lo, r3, r3_lo, t, t_lo, hi, lo;
  two_prod(r, r, z, z_lo);
  two_prod(r, z, r3, r3_lo);
  r3_lo = fp::add(r3_lo, fp::mul(r, z_lo));  // r^3 = r3 + r3_lo
  two_prod(r3, sixth_hi, t, t_lo);
  const double small = fp::add(t_lo, fp::add(fp::mul(r3_lo, sixth_hi), fp::mul(r3, sixth_lo)));
  const double higher = fp::mul(fp::mul(r3, z), fp::horner(z, c));
  const double first = fp::sub(rlo, fp::mul(fp::mul(0.5, z), rlo));
  two_sum(r, t, hi, lo);
  return fp::add(hi, fp::add(lo, fp::add(small, fp::add(higher, first))));
}
inline JT_HOST_DEVICE double philox_cos_kernel(double r, double rlo) {
  const double c[8] = {0x1.5555555555555p-5,   -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22,
                       0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53};
  double z, z_lo, hi, lo;
  two_prod(r, r, z, z_lo);
  two_sum(1.0, fp::mul(-0.5, z), hi, lo);
  const double tail = fp::sub(fp::mul(fp::mul(z, z), fp::horner(z, c)), fp::add(fp::mul(r, rlo), fp::mul(0.5, z_lo)));
  return fp::add(hi, fp::add(lo, tail));
}

// sin(th) (sine) or cos(th) for 0 <= th < 2^20: th = k pi/2 + r + rlo with pi/2 in three parts of
// which the first two have 33 bits, so k times them is exact and th - k * part1 cancels exactly;
// the second subtraction's rounding error is kept (two-sum) in rlo.
inline JT_HOST_DEVICE double philox_sin_cos(double th, bool sine) {
  const double pio2_1 = 0x1.921fb54400000p+0, pio2_2 = 0x1.0b4611a600000p-34, pio2_3 = 0x1.3198a2e037073p-69;
  const int k = (int)fp::add(fp::mul(th, 0x1.45f306dc9c883p-1), 0.5);  // nearest th / (pi/2)
  const double dk = (double)k;
  const double t = fp::sub(th, fp::mul(dk, pio2_1)), w = fp::mul(dk, pio2_2);
  double r1, err;
  two_sum(t, -w, r1, err);
  const double tail = fp::sub(err, fp::mul(dk, pio2_3));
  const double r = fp::add(r1, tail), rlo = fp::sub(tail, fp::sub(r, r1));  // |r1| >= |tail|: fast two-sum
  switch ((k + (sine ? 3 : 0)) & 3) {  // sin(th) = cos(th - pi/2)
    case 0: return philox_cos_kernel(r, rlo);
    case 1: return -philox_sin_kernel(r, rlo);
    case 2: return -philox_cos_kernel(r, rlo);
    default: return philox_sin_kernel(r, rlo);
  }
}

// u in [0, 1) from 53 of the 64 bits hi:lo.
inline JT_HOST_DEVICE double philox_bits53(uint32_t hi, uint32_t lo) {
  return (double)((((uint64_t)hi << 32) | lo) >> 11) * 0x1.0p-53;  // exact
}

// Box-Muller's radius sqrt(-2 log(1 - u)) and angle 2 pi u' of a normal pair from block words w.
inline JT_HOST_DEVICE double normal_radius(const uint32_t w[4]) {
  return fp::sqrt(fp::mul(-2.0, philox_log(fp::sub(1.0, philox_bits53(w[0], w[1])))));  // 1 - u is in (0, 1]
}
inline JT_HOST_DEVICE double normal_angle(const uint32_t w[4]) {
  return fp::mul(2.0 * 3.14159265358979323846, philox_bits53(w[2], w[3]));
}
// a + b * (radius * (cos or sin)(angle)): element j of a normal pair
inline JT_HOST_DEVICE double normal_value(const RandomDraw& d, double radius, double angle, int j) {
  return fp::add(d.a, fp::mul(d.b, fp::mul(radius, philox_sin_cos(angle, j & 1))));
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

// The same, converted to the draw's dtype T as every backend stores it.
template <typename T>
inline JT_HOST_DEVICE T random_element(const RandomDraw& d, const uint32_t w[4], int j, double prob) {
  int64_t exact = 0;
  const double v = random_value(d, w, j, prob, &exact);
  return d.kind == RandomKind::Integers ? convert<T, int64_t>(exact) : convert<T, double>(v);
}

}  // namespace jt
