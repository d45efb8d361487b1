// log2, log10, sin, cos, atan, erfc, expm1 and erfinv of a float, computed in double and rounded once: each
// within 0.51 ulp of the exact value (float_math_test), where Sleef's u10 functions that PyTorch
// calls promise 1, and exact where the exact result is a float (log2 of a power of two, log10 of a
// power of ten). Plain arithmetic on doubles, which the compiler vectorizes (half the lanes of
// float, still a fraction of a scalar call to the C library per element). sin and cos reduce
// |x| < 2^20 only (sin_cos_reduces); jt/functors.h gives larger arguments to the C library.
#pragma once
#include <cmath>

#include "jt/float_math.h"

namespace jt {
namespace fm {

inline uint64_t bits(double x) { return bit_cast<uint64_t>(x); }
inline double from_bits(uint64_t b) { return bit_cast<double>(b); }
inline double pick(bool c, double a, double b) {  // c ? a : b without a branch, as float's pick
  const uint64_t m = 0ull - (uint64_t)c;
  return from_bits((bits(a) & m) | (bits(b) & ~m));
}

// c[0] x^(N-1) + ... + c[N-1] by Horner's rule (a loop the compiler unrolls)
template <int N>
inline double horner(double x, const double (&c)[N]) {
  double p = c[0];
  for (int i = 1; i < N; ++i) p = p * x + c[i];
  return p;
}

// y + kRound - kRound is y rounded to an integer (|y| < 2^51), and the low bits of y + kRound are it
constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52

// e^x - 1 = 2^n (e^r - 1) with n = round(x / ln2) (returned in n) and r = x - n ln2 in two parts
// (fdlibm's), e^r - 1 by its Taylor polynomial to degree 11 (|r| <= ln2 / 2: truncation 2e-13
// relative). For |x| up to about 700.
inline double expm1_reduced(double x, int64_t& n) {
  const double t = x * 1.4426950408889634 + kRound;
  const double nf = t - kRound;
  n = (int64_t)(bits(t) - bits(kRound));
  const double r = (x - nf * 6.93147180369123816490e-01) - nf * 1.90821492927058770002e-10;
  static constexpr double kP[] = {
      1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
      1.0 / 6, 0.5};
  const double p = horner(r, kP);
  return r * (1.0 + r * p);
}
inline double power_of_two(int64_t n) { return from_bits((uint64_t)(n + 1023) << 52); }  // n in [-1022, 1023]

// e^x for x in [-700, 700]
inline double exp_wide(double x) {
  int64_t n;
  const double q = expm1_reduced(x, n);
  return (q + 1.0) * power_of_two(n);
}

// e^x - 1 = 2^n (e^r - 1) + (2^n - 1): 2^n - 1 is exact in double over float's range, so the result
// rounds once. x clamped to [-30, 89] (-1 below, inf above 88.72), -0 kept, NaN kept.
inline float expm1(float x) {
  double c = x < -30.0f ? -30.0f : x;  // NaN compares false and passes through both clamps
  c = c > 89.0 ? 89.0 : c;
  int64_t n;
  const double q = expm1_reduced(c, n);
  const double s = power_of_two(n);
  return pick(x == 0.0f, x, (float)(q * s + (s - 1.0)));
}

// log(1 + m) for m of log_reduce (in [sqrt(1/2) - 1, sqrt(2) - 1)): 2 atanh(s), s = m / (2 + m),
// |s| < 0.172, by its series to s^13 (truncation 1e-12 relative).
inline double log1p_reduced(double m) {
  const double s = m / (2.0 + m), z = s * s;
  static constexpr double kP[] = {1.0 / 13, 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3};
  const double p = horner(z, kP);
  return (s + s) * (1.0 + z * p);  // exactly 0 at m = 0, so log2(2^e) is e
}

inline float log2(float x) {
  int32_t e;
  const float m = log_reduce(x, e);
  return log_special(x, (float)((double)e + log1p_reduced(m) * 1.4426950408889634));
}
inline float log10(float x) {
  int32_t e;
  const float m = log_reduce(x, e);
  return log_special(x, (float)((double)e * 0.30102999566398120 + log1p_reduced(m) * 0.43429448190325183));
}

// sin (cosine false) or cos of x for |x| < 2^20 (NaN and +-inf give NaN): x = q pi/2 + r with pi/2 in
// fdlibm's two parts (33 bits, so q pi/2's first part is exact for q < 2^20, then 53 more: r is
// good to 2^-60 relative even for the floats nearest a multiple of pi/2), then sin r or cos r by
// their Taylor polynomials (|r| <= pi/4: truncation 1e-9 relative) as q mod 4 says. Odd: sin(-0) = -0.
inline float sin_cos_reduced(float x, bool cosine) {
  const double xd = x;
  const double t = xd * 0.63661977236758134 + kRound;
  const double q = t - kRound;
  const uint64_t quadrant = bits(t) - bits(kRound) + (uint64_t)cosine;  // cos x = sin(x + pi/2)
  const double r = (xd - q * 1.57079632673412561417e+00) - q * 6.07710050650619224932e-11;
  const double z = r * r;
  static constexpr double kS[] = {1.0 / 362880, -1.0 / 5040, 1.0 / 120, -1.0 / 6};
  const double s = r * (1.0 + z * horner(z, kS));  // r times, not r plus: sin(-0) stays -0
  static constexpr double kC[] = {-1.0 / 3628800, 1.0 / 40320, -1.0 / 720, 1.0 / 24, -0.5};
  const double c = 1.0 + z * horner(z, kC);
  const double v = pick((quadrant & 1) != 0, c, s);
  return (float)pick((quadrant & 2) != 0, -v, v);
}
constexpr float sin_cos_reduces = 0x1p20f;  // |x| below which sin_cos_reduced is right

// atan: Cephes' atanf reduction (|x| past tan(3pi/8): pi/2 - atan(1/|x|); past tan(pi/8):
// pi/4 + atan((|x| - 1) / (|x| + 1))), in double, then atan t = t + t^3 p(t^2) for |t| <= tan(pi/8)
// by a fit of degree 5 in t^2 (fit_atan.py in native/tests: 3e-11 relative); odd, +-pi/2 at +-inf,
// NaN kept.
inline float atan(float x) {
  const double ax = magnitude(x);
  const bool big = ax > 2.414213562373095, mid = ax > 0.41421356237309503;
  const double t = pick(big, -1.0, pick(mid, ax - 1.0, ax)) / pick(big, ax, pick(mid, ax + 1.0, 1.0));
  const double base = pick(big, 1.5707963267948966, pick(mid, 0.78539816339744831, 0.0));
  const double z = t * t;
  static constexpr double kP[] = {
      0.05054209708699989, -0.08627289507277268, 0.11071759151998721, -0.1428417549272616,
      0.19999977784352643, -0.33333333281082606};
  const double p = horner(z, kP);
  const double r = base + t * (1.0 + z * p);
  return with_sign_of((float)r, x);
}

// erfc: t exp(P(t) - x^2) for t = 2 / (2 + |x|) (Numerical Recipes' form), P a degree-12 fit
// (fit_erfc.py in native/tests: 1.8e-10 absolute, so the result is good to 2e-10 relative down to
// float's last subnormal near x = 10.05); 2 - erfc(|x|) below 0. 1 at +-0, 0 at inf, 2 at -inf, NaN kept.
inline float erfc(float x) {
  const double ax = magnitude(x);
  const double a = ax > 10.1 ? 10.1 : ax;  // erfc(10.1) is below float's last subnormal; NaN passes
  const double t = 2.0 / (2.0 + a);
  const double u = (t - 0.5826446280991735) * 2.396039603960396;
  static constexpr double kP[] = {
      5.20511611193336e-06, -4.9059815781975925e-06, -3.87127582343857e-05, 6.948608543533673e-05,
      0.00014802127687290877, -0.0005556161113652012, -0.00028132287019085256, 0.0037467575523601527,
      -0.0010812767520001203, -0.02961069572745679, 0.01594359198764128, 0.5711974328976093,
      -0.5595379645389381};
  const double p = horner(u, kP);
  double r = t * exp_wide(p - a * a);
  r = pick(ax > 10.1, 0.0, r);
  return (float)pick(x < 0.0f, 2.0 - r, r);
}

// log v for a positive normal double: log_reduce's way in double (the exponent made a double on the
// bits, which every SIMD level converts), then log1p_reduced.
inline double log_wide(double v) {
  const uint64_t b = bits(v);
  const double raw = from_bits((uint64_t)(0x4330000000000000ull | ((b >> 52) & 0x7ff))) - 4503599627370496.0;
  const double f = from_bits((uint64_t)((b & 0x000fffffffffffffull) | 0x3fe0000000000000ull));  // [0.5, 1)
  const bool low = f < 0.70710678118654752;
  const double e = raw - 1022.0 - pick(low, 1.0, 0.0);  // raw: the exponent field
  return e * 0.69314718055994531 + log1p_reduced(pick(low, f + f - 1.0, f - 1.0));
}

// erfinv: y p(w) with Giles' w = -log(1 - y^2) ("Approximating the erfinv function", 2011), p a
// degree-12 fit in w - 2.5 below w = 5 and in sqrt(w) - 3.1613 above, up to float's |y| nearest 1
// (fit_erfinv.py in native/tests: 1.5e-10 relative). Odd; +-inf at +-1, NaN past 1, NaN kept.
inline float erfinv(float y) {
  const double ay = magnitude(y);
  const double w = -log_wide((1.0 - ay) * (1.0 + ay));  // 1 - y^2, exact in double
  static constexpr double kNear[] = {
      -2.0530253826425626e-11, 1.2294079786019471e-10, 8.200569792407284e-10, -1.0852875939709108e-08,
      1.3780551730822937e-08, 4.786352615384768e-07, -3.4174044817819687e-06, -4.9958551035565635e-06,
      0.00021825107431151913, -0.001252708113321456, -0.004177318038630212, 0.24664027679468037,
      1.501409351130728};
  static constexpr double kTail[] = {
      9.924673464453821e-06, -6.478461787304788e-06, -5.782113800483435e-05, 0.000127773430860213,
      -4.833637568521195e-05, -0.00035480690742661035, 0.0011743222234800736, -0.0022529897975753573,
      0.0033612409328215268, -0.004782027361395203, 0.006499206175522841, 1.0042103258885307,
      2.9947799074147845};
  const double near = horner(w - 2.5, kNear);
  const double tail = horner(std::sqrt(w) - 3.16131566292015, kTail);  // NaN where |y| > 1: picked away
  double r = ay * pick(w < 5.0, near, tail);
  r = pick(ay == 1.0, __builtin_inf(), r);
  r = pick(ay <= 1.0, r, __builtin_nan(""));  // NaN kept
  return with_sign_of((float)r, y);
}

}  // namespace fm
}  // namespace jt
