// sin and cos of any double, for host code whose C library gets them wrong (MinGW's are x87's fsin
// and fcos: they reduce the angle with a 66-bit pi, so near multiples of pi/2, and everywhere above
// 2^20, they were off by 1e5 to 1e18 ulp; functors.h's sin_of). Below 2^20 the angle is reduced by
// fp::sin_cos's three-part pi/2; above, by Payne and Hanek's method: x times 2/pi, where only the
// bits of 2/pi that reach the quadrant and the fraction are used, in exact integer arithmetic.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "jt/reproducible_math.h"

namespace jt {
namespace fp {

// 2/pi's first 1,280 bits after the binary point, 32 a word (a double's largest angle reads 1,216 of
// them). Computed in integers from Machin's formula; native/tests/make_large_trig_cases.py computes
// pi the same way, and kernels_test checks sin and cos in every binade against its cases.
inline constexpr uint32_t kTwoOverPi[40] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d};

// Bits [lo, lo + n) of a little-endian integer of 32-bit limbs (n <= 64; bits below 0 read as 0).
inline uint64_t limb_bits(const uint32_t* a, int lo, int n) {
  uint64_t v = 0;
  for (int p = lo + n - 1; p >= lo; --p) v = (v << 1) | (p >= 0 ? (a[p >> 5] >> (p & 31)) & 1u : 0u);
  return v;
}

// For a finite |x| >= 2^20: x = (k + f) pi/2 with |f| <= 1/2; returns k mod 4 and r + rlo = f pi/2.
// x = m 2^e (m of 53 bits) times the words j0..j0+7 of 2/pi, as a 320-bit integer: the words before
// j0 add multiples of 4 (no quadrant, no fraction), and those after change the product by less than
// m 2^(e - 32 (j0 + 8)) <= 2^-169, while no double lies closer to a multiple of pi/2 than 2^-61 (the
// cases' hardest angle). So f keeps over 100 good bits, carried in two doubles.
inline int rem_pio2_large(double x, double& r, double& rlo) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  const int e = (int)((b >> 52) & 0x7ff) - 1075;  // |x| = m 2^e, e >= -32
  const uint64_t m = (b & 0xfffffffffffffull) | (1ull << 52);
  const int j0 = e >= 34 ? (e - 34) / 32 + 1 : 0;  // word j weighs 2^(e - 32 j - 32) in x 2/pi
  uint64_t sum[11] = {};                           // limb sums before carrying, each below 2^36
  for (int i = 0; i < 8; ++i) {                    // word j0 + i lands at limb 7 - i
    const uint64_t w = kTwoOverPi[j0 + i], lo = (m & 0xffffffffu) * w, hi = (m >> 32) * w;
    sum[7 - i] += lo & 0xffffffffu;
    sum[8 - i] += (lo >> 32) + (hi & 0xffffffffu);
    sum[9 - i] += hi >> 32;
  }
  uint32_t acc[11];
  uint64_t carry = 0;
  for (int i = 0; i < 11; ++i) {
    carry += sum[i];
    acc[i] = (uint32_t)carry;
    carry >>= 32;
  }
  const int F = 32 * (j0 + 8) - e;  // the binary point: acc's bits below F are the fraction, 223 <= F <= 288
  int k = (int)limb_bits(acc, F, 2);
  const bool negative = limb_bits(acc, F - 1, 1) != 0;  // f >= 1/2: take k + 1 and f - 1
  if (negative) {
    k = (k + 1) & 3;
    uint64_t borrow = 0;  // the fraction's bits become 2^F - fraction: |f - 1|
    for (int i = 0; i < 11; ++i) {
      const uint64_t d = 0ull - acc[i] - borrow;
      acc[i] = (uint32_t)d;
      borrow = d >> 63 ? 1 : 0;
    }
  }
  int top = F - 1;  // the fraction's leading bit
  while (top > 0 && limb_bits(acc, top, 1) == 0) --top;
  const double f_hi = std::ldexp((double)limb_bits(acc, top - 52, 53), top - 52 - F);
  const double f_lo = std::ldexp((double)limb_bits(acc, top - 105, 53), top - 105 - F);
  const double pio2_hi = 0x1.921fb54442d18p+0, pio2_lo = 0x1.1a62633145c07p-54;  // pi/2 in two doubles
  double p, perr;
  two_prod(f_hi, pio2_hi, p, perr);
  const double tail = add(perr, add(mul(f_hi, pio2_lo), mul(f_lo, pio2_hi)));
  r = add(p, tail);
  rlo = sub(tail, sub(r, p));
  if (negative) r = -r, rlo = -rlo;
  return k;
}

// sin(x) (sine) or cos(x) of any double: within 0.6 ulp below 2^20 (fp::sin_cos), within 1 ulp above
// (kernels_test's cases); NaN for infinities and NaN.
inline double sin_cos_any(double x, bool sine) {
  const double a = std::fabs(x);
  if (!(a < INFINITY)) return x - x;
  if (a < 0x1p20) {
    if (sine) return x == 0 ? x : x < 0 ? -sin_cos(a, true) : sin_cos(a, true);  // keeps -0
    return sin_cos(a, false);
  }
  double r, rlo;
  const int k = rem_pio2_large(a, r, rlo);
  double v;
  switch ((k + (sine ? 3 : 0)) & 3) {  // sin(a) = cos(a - pi/2)
    case 0: v = cos_kernel(r, rlo); break;
    case 1: v = -sin_kernel(r, rlo); break;
    case 2: v = -cos_kernel(r, rlo); break;
    default: v = sin_kernel(r, rlo); break;
  }
  return sine && x < 0 ? -v : v;
}

}  // namespace fp
}  // namespace jt
