// log, sin and cos that give the same bits on the CPU and on a CUDA device (the random draws'
// normal kind, jt/philox.h): computed from + - * / and sqrt alone, each correctly rounded on both
// and never fused into an FMA (the device side calls the _rn intrinsics; the host side is
// compiled with -ffp-contract=off), since glibc's and CUDA's libm differ in the last bit. Leading
// terms are carried in two doubles (two-sum, Dekker's product), so results are correctly rounded
// nearly always (random_host_test measures how often, and the worst error).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "jt/dtype.h"  // JT_HOST_DEVICE

namespace jt {
namespace fp {

// IEEE double operations, one rounding each (to nearest even), never contracted on the device.
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
  JT_UNROLL
  for (int i = N - 2; i >= 0; --i) acc = add(p[i], mul(z, acc));
  return acc;
}
// a + b as hi + lo exactly (Knuth's two-sum).
inline JT_HOST_DEVICE void two_sum(double a, double b, double& hi, double& lo) {
  hi = add(a, b);
  const double bb = sub(hi, a);
  lo = add(sub(a, sub(hi, bb)), sub(b, bb));
}

// a = hi + lo with hi holding a's upper 26 bits (Veltkamp's split)
inline JT_HOST_DEVICE void split26(double a, double& hi, double& lo) {
  const double c = mul(0x1.0000002p+27, a);  // 2^27 + 1
  hi = sub(c, sub(c, a));
  lo = sub(a, hi);
}
// a * b as hi + lo exactly, without an FMA (Dekker's product)
inline JT_HOST_DEVICE void two_prod(double a, double b, double& hi, double& lo) {
  double ah, al, bh, bl;
  split26(a, ah, al);
  split26(b, bh, bl);
  hi = mul(a, b);
  lo = add(add(add(sub(mul(ah, bh), hi), mul(ah, bl)), mul(al, bh)), mul(al, bl));
}

// log(x) for a positive normal finite x, within 0.63 ulp (random_host_test measures it): x = 2^k (1 + f) with sqrt(1/2) <= 1 + f
// < sqrt(2), log(1 + f) = 2 atanh(s) for s = f / (2 + f), written as f - f^2/2 + s (f^2/2 + R(s^2))
// where f is exact, f^2 is exact as Dekker's product and the sums up to k log(2) are carried in
// two doubles, so the result is rounded about once.
inline JT_HOST_DEVICE double log(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  int k = (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0xfffffffffffffull) | 0x3ff0000000000000ull;  // the mantissa m, in [1, 2)
  double m;
  std::memcpy(&m, &bits, 8);
  if (m > 0x1.6a09e667f3bcdp+0) m = mul(m, 0.5), ++k;  // sqrt(2)
  const double f = sub(m, 1.0);                           // exact (Sterbenz)
  const double s = div(f, add(2.0, f)), z = mul(s, s);
  // 2/3, 2/5, ..., 2/23: atanh's Taylor terms after the first, |s| <= 0.1716 so z^11 / 23 < 2^-58
  const double c[11] = {0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
                        0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
                        0x1.af286bca1af28p-4, 0x1.8618618618618p-4, 0x1.642c8590b2164p-4};
  const double R = mul(z, horner(z, c));
  double sq, sq_lo;
  two_prod(f, f, sq, sq_lo);
  const double hfsq = mul(0.5, sq), hfsq_lo = mul(0.5, sq_lo);
  const double corr = mul(s, add(hfsq, R));
  double a_hi, a_lo, k_hi, k_lo;
  two_sum(f, -hfsq, a_hi, a_lo);
  const double dk = (double)k;
  const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c76730p-45;  // ln2_hi * k is exact
  two_sum(mul(dk, ln2_hi), a_hi, k_hi, k_lo);
  const double lo = add(a_lo, sub(corr, hfsq_lo));
  return add(k_hi, add(k_lo, add(lo, mul(dk, ln2_lo))));
}

// sin(r + rlo) and cos(r + rlo) for |r| <= pi/4 (a little beyond is fine) and rlo below half an
// ulp of r, by Taylor polynomials through r^19 and r^18, whose truncation is below 2^-56 of the
// result; rlo enters to first order (+ rlo cos(r), - rlo sin(r)). The terms r^3 / 6 and r^2 / 2,
// up to 8% and 31% of the result, are carried in two doubles so that it is rounded about once.
inline JT_HOST_DEVICE double sin_kernel(double r, double rlo) {
  const double c[8] = {0x1.1111111111111p-7,   -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
                       -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,  -0x1.ae7f3e733b81fp-41,
                       0x1.952c77030ad4ap-49,  -0x1.2f49b46814157p-57};  // 1/5!, -1/7!, ..., -1/19!
  const double sixth_hi = -0x1.5555555555555p-3, sixth_lo = -0x1.5555555555555p-57;  // -1/6
  double z, z_lo, r3, r3_lo, t, t_lo, hi, lo;
  two_prod(r, r, z, z_lo);
  two_prod(r, z, r3, r3_lo);
  r3_lo = add(r3_lo, mul(r, z_lo));  // r^3 = r3 + r3_lo
  two_prod(r3, sixth_hi, t, t_lo);
  const double small = add(t_lo, add(mul(r3_lo, sixth_hi), mul(r3, sixth_lo)));
  const double higher = mul(mul(r3, z), horner(z, c));
  const double first = sub(rlo, mul(mul(0.5, z), rlo));
  two_sum(r, t, hi, lo);
  return add(hi, add(lo, add(small, add(higher, first))));
}
inline JT_HOST_DEVICE double cos_kernel(double r, double rlo) {
  const double c[8] = {0x1.5555555555555p-5,   -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22,
                       0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53};
  double z, z_lo, hi, lo;
  two_prod(r, r, z, z_lo);
  two_sum(1.0, mul(-0.5, z), hi, lo);
  const double tail = sub(mul(mul(z, z), horner(z, c)), add(mul(r, rlo), mul(0.5, z_lo)));
  return add(hi, add(lo, tail));
}

// sin(th) (sine) or cos(th) for 0 <= th < 2^20: th = k pi/2 + r + rlo with pi/2 in three parts of
// which the first two have 33 bits, so k times them is exact and th - k * part1 cancels exactly;
// the second subtraction's rounding error is kept (two-sum) in rlo.
inline JT_HOST_DEVICE double sin_cos(double th, bool sine) {
  const double pio2_1 = 0x1.921fb54400000p+0, pio2_2 = 0x1.0b4611a600000p-34, pio2_3 = 0x1.3198a2e037073p-69;
  const int k = (int)add(mul(th, 0x1.45f306dc9c883p-1), 0.5);  // nearest th / (pi/2)
  const double dk = (double)k;
  const double t = sub(th, mul(dk, pio2_1)), w = mul(dk, pio2_2);
  double r1, err;
  two_sum(t, -w, r1, err);
  const double tail = sub(err, mul(dk, pio2_3));
  const double r = add(r1, tail), rlo = sub(tail, sub(r, r1));  // |r1| >= |tail|: fast two-sum
  switch ((k + (sine ? 3 : 0)) & 3) {  // sin(th) = cos(th - pi/2)
    case 0: return cos_kernel(r, rlo);
    case 1: return -sin_kernel(r, rlo);
    case 2: return -cos_kernel(r, rlo);
    default: return sin_kernel(r, rlo);
  }
}

// sin(th) and cos(th) at once, the same bits as sin_cos gives each: one reduction, both kernels,
// the quadrant chosen without a branch (so that a loop over angles vectorizes).
inline JT_HOST_DEVICE void sin_and_cos(double th, double& sine, double& cosine) {
  const double pio2_1 = 0x1.921fb54400000p+0, pio2_2 = 0x1.0b4611a600000p-34, pio2_3 = 0x1.3198a2e037073p-69;
  const int k = (int)add(mul(th, 0x1.45f306dc9c883p-1), 0.5);
  const double dk = (double)k;
  const double t = sub(th, mul(dk, pio2_1)), w = mul(dk, pio2_2);
  double r1, err;
  two_sum(t, -w, r1, err);
  const double tail = sub(err, mul(dk, pio2_3));
  const double r = add(r1, tail), rlo = sub(tail, sub(r, r1));
  const double s = sin_kernel(r, rlo), c = cos_kernel(r, rlo);
  const int q = k & 3;  // cos(th) is c, -s, -c, s in quadrants 0..3; sin(th) is s, c, -s, -c
  const double cos_mag = (q & 1) ? s : c, sin_mag = (q & 1) ? c : s;
  cosine = (q == 1 || q == 2) ? -cos_mag : cos_mag;
  sine = q >= 2 ? -sin_mag : sin_mag;
}

}  // namespace fp
}  // namespace jt
