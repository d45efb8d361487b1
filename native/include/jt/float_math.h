// exp, log, log1p, tanh, erf and gelu of a float in plain arithmetic that the compiler vectorizes (std::expf
// and friends are a call per element, so a loop over them never is): Cody-Waite range reduction,
// Cephes' polynomials and Chebyshev fits, special values chosen on the bits without a branch. Each
// is within 1 ulp of the exact value on normal results (2 for tanh, as Cephes' tanhf; 1.5 for
// erf), as Sleef's u10 functions that PyTorch's vectorized CPU kernels call; float_math_test
// measures the error over every 61st float.
// The CPU functors (jt/functors.h) call these for float, float16 and bfloat16; CUDA keeps its own.
// jt/float_math_wide.h has the ones computed in double (log2, log10, sin, cos, atan, erfc, expm1,
// erfinv).
#pragma once
#include <cstdint>
#include <cstring>

namespace jt {
namespace fm {

template <typename To, typename From>
inline To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To t;
  std::memcpy(&t, &x, sizeof t);
  return t;
}
inline uint32_t bits(float x) { return bit_cast<uint32_t>(x); }
inline float from_bits(uint32_t b) { return bit_cast<float>(b); }

// c ? a : b on the bits, where GCC would otherwise sink each side into a branch of its own and
// give up vectorizing the loop.
inline float pick(bool c, float a, float b) {
  const uint32_t m = 0u - (uint32_t)c;
  return from_bits((bits(a) & m) | (bits(b) & ~m));
}

// |x| and r with x's sign bit, on the bits (odd functions: f(-0) is -0, and no branch)
inline float magnitude(float x) { return from_bits(bits(x) & 0x7fffffffu); }
inline float with_sign_of(float r, float x) { return from_bits(bits(r) | (bits(x) & 0x80000000u)); }

// e^x = 2^n e^r with n = round(x / ln2) (returned in n) and |r| <= ln2 / 2: e^r by Cephes'
// expf polynomial (degree 7) after a two-part Cody-Waite reduction. For |x| up to about 150.
inline float exp_reduced(float x, int32_t& n) {
  const float t = x * 1.44269504088896341f + 12582912.0f;  // 1.5 * 2^23: rounds x / ln2 to an integer
  const float nf = t - 12582912.0f;
  n = (int32_t)(bits(t) - 0x4B400000u);
  const float r = (x - nf * 0.693359375f) + nf * 2.12194440e-4f;  // x - n ln2 in two parts
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return p * r * r + r + 1.0f;
}

// e^x over the whole float range: 0 below about -103.97, inf above about 88.72, NaN kept.
inline float exp(float x) {
  x = x < -104.0f ? -104.0f : x;  // NaN compares false and passes through both clamps
  x = x > 89.0f ? 89.0f : x;
  int32_t n;
  const float p = exp_reduced(x, n);  // n in [-150, 128]
  // 2^n as two normal powers of two, so that results near the ends of the range round once
  const int32_t n1 = n >> 1, n2 = n - n1;
  return p * from_bits((uint32_t)(n1 + 127) << 23) * from_bits((uint32_t)(n2 + 127) << 23);
}

// x = 2^e (1 + m) with m in [sqrt(1/2) - 1, sqrt(2) - 1) (returned; exact) and e in e, subnormals
// included; log's, log2's and log10's reduction.
inline float log_reduce(float x, int32_t& e) {
  const uint32_t xb = bits(x);
  // both sides of each choice computed, then picked
  const bool subnormal = (xb & 0x7f800000u) == 0;
  const uint32_t b = bits(pick(subnormal, x * 8388608.0f, x));  // 2^23
  e = (int32_t)((b >> 23) & 0xff) - 126 - (23 & -(int32_t)subnormal);
  const float f = from_bits((b & 0x007fffffu) | 0x3f000000u);  // in [0.5, 1)
  const bool low = f < 0.707106781186547524f;
  e -= (int32_t)low;
  return pick(low, f + f - 1.0f, f - 1.0f);  // exact
}

// r where x is positive and finite; the logarithms' special values elsewhere: -inf at +-0, NaN
// below 0 (-inf included), inf at inf, NaN kept.
inline float log_special(float x, float r) {
  const uint32_t xb = bits(x);
  const uint32_t mag = xb & 0x7fffffffu;
  const bool negative = (xb >> 31) != 0;
  r = pick(mag == 0, -__builtin_inff(), r);                      // +-0
  r = pick(negative & (mag != 0), __builtin_nanf(""), r);       // negative, -inf included
  r = pick((mag >= 0x7f800000u) & !negative, x, r);             // +inf and NaN
  return pick(mag > 0x7f800000u, x, r);                         // NaN of either sign
}

// natural log: Cephes' logf polynomial on log_reduce's m; subnormals exact in their exponent.
inline float log(float x) {
  int32_t e;
  const float m = log_reduce(x, e);
  const float z = m * m;
  float y = 7.0376836292e-2f;
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z;
  const float fe = (float)e;
  y += fe * -2.12194440e-4f;
  y += -0.5f * z;
  return log_special(x, (m + y) + fe * 0.693359375f);
}

// log(1 + x), Goldberg's way: log(u) for u = 1 + x rounded, times x / (u - 1) (exact), which
// cancels u's rounding; x itself where u rounds to 1 (-0.0 kept), -inf at -1, NaN below, inf at inf.
inline float log1p(float x) {
  const float u = 1.0f + x;
  const float d = u - 1.0f;
  const bool one = d == 0.0f;
  float r = log(u) * (x / pick(one, 1.0f, d));
  r = pick(one, x, r);
  return pick(u == __builtin_inff(), u, r);  // inf / inf would be NaN
}

// tanh: Cephes' odd polynomial below |x| = 0.625, 1 - 2 / (e^2|x| + 1) above; NaN kept.
inline float tanh(float x) {
  const float ax = magnitude(x);
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = with_sign_of(p * z * ax + ax, x);  // odd: tanh(-0) is -0
  const float big = with_sign_of(1.0f - 2.0f / (exp(2.0f * ax) + 1.0f), x);
  return ax > 0.625f ? big : small;
}

// sinh: Cephes' odd polynomial below |x| = 1; above, (e^|x| - e^-|x|) / 2 from one exp, and past
// |x| = 88 (where e^|x| alone overflows but sinh does not, up to 89.4) e^(|x|/2) / 2 times e^(|x|/2).
inline float sinh(float x) {
  const float ax = magnitude(x);
  const float z = x * x;
  float p = 2.03721912945e-4f;
  p = p * z + 8.33028376239e-3f;
  p = p * z + 1.66667160211e-1f;
  const float small = p * z * ax + ax;
  const float e = exp(ax), h = exp(0.5f * ax);
  const float r = pick(ax < 1.0f, small, pick(ax < 88.0f, 0.5f * e - 0.5f / e, (0.5f * h) * h));
  return with_sign_of(r, x);  // odd: sinh(-0) is -0
}

// cosh: (e^|x| + e^-|x|) / 2, and past |x| = 88 as sinh's; NaN kept.
inline float cosh(float x) {
  const float ax = magnitude(x);
  const float e = exp(ax), h = exp(0.5f * ax);
  return pick(ax < 88.0f, 0.5f * e + 0.5f / e, (0.5f * h) * h);
}

// atanh: Cephes' odd polynomial below |x| = 0.5; above, log((1 + |x|) / (1 - |x|)) / 2 as
// log1p(2|x| / (1 - |x|)) / 2 (1 - |x| exact there): inf at 1, NaN past it.
inline float atanh(float x) {
  const float ax = magnitude(x);
  const float z = x * x;
  float p = 1.81740078349e-1f;
  p = p * z + 8.24370301058e-2f;
  p = p * z + 1.46691431730e-1f;
  p = p * z + 1.99782164500e-1f;
  p = p * z + 3.33337300303e-1f;
  const float small = p * z * ax + ax;
  const float big = 0.5f * log1p((ax + ax) / (1.0f - ax));
  const float r = pick(ax < 0.5f, small, big);
  return with_sign_of(r, x);
}

// erf: below |x| = 0.875, x + x q(x^2) (q a Chebyshev fit of erf(x)/x - 1 over x^2 in [0, 1]:
// the exact x carries the leading term, so the result rounds about once); above, 1 - e^(-x^2) h(1/x)
// with h a degree-11 Chebyshev fit of erfc(x) e^(x^2) over 1/x in [1/4, 1/0.875]. 1 from x = 4 on
// (erf(4) is 1 - 1.5e-8, which rounds to 1), NaN kept, odd.
inline float erf(float x) {
  const float ax = magnitude(x);
  const float z = x * x;
  float q = 7.882497107e-05f;
  q = q * z - 8.018854992e-04f;
  q = q * z + 5.189311943e-03f;
  q = q * z - 2.685432880e-02f;
  q = q * z + 1.128359746e-01f;
  q = q * z - 3.761262690e-01f;
  q = q * z + 1.28379166e-01f;  // 2 / sqrt(pi) - 1
  const float small = x + x * q;
  const float a = ax > 4.0f ? 4.0f : ax;  // NaN passes
  const float u = (1.0f / a - 0.696428571f) * 2.24f;  // [1/4, 1/0.875] onto [-1, 1]
  float h = 2.447566638e-06f;
  h = h * u - 5.595457723e-06f;
  h = h * u + 1.316226937e-06f;
  h = h * u + 1.624626643e-05f;
  h = h * u - 7.572742737e-05f;
  h = h * u + 2.476695305e-04f;
  h = h * u - 5.513693173e-04f;
  h = h * u + 3.787646360e-04f;
  h = h * u + 4.299834733e-03f;
  h = h * u - 3.237745058e-02f;
  h = h * u + 1.599795610e-01f;
  h = h * u + 3.323958864e-01f;
  const float big = with_sign_of(1.0f - exp(-(a * a)) * h, x);
  return ax < 0.875f ? small : big;
}

// gelu(x) = x Phi(x), Phi the normal distribution function, with Phi(-a) = e^(M(a) - a^2/2) / 2 for
// a = |x|: M(a) = log(erfcx(a / sqrt 2)) is smooth and small (0 to -2.3 over [0, 8]), so a degree-12
// fit of it in v = a/8 (no constant term: M(0) = 0) costs no division and one exp, where
// 1 + erf(x / sqrt 2) costs erf's two ranges, a division and an exp, and cancels for negative x
// (PyTorch's float gelu is 17 percent off at x = -5, and 0 at -8). Error (float_math_test): 7.4 ulps
// above x = -2, relative 1.1e-6 down to -4 and 2.9e-5 down to -8; below, M is held at M(8)
// (Phi(-8) is 6e-16: absolute error under 3e-17), and 0 once e^(-a^2/2) underflows (below -14.4).
// normal_tail(a) is that Phi(-a), a = |x| (NaN passes), shared by gelu and its derivative.
inline float normal_tail(float a) {
  const float v = (a > 8.0f ? 8.0f : a) * 0.125f;  // NaN passes
  // Estrin's scheme: a Horner chain of 24 dependent operations left the loop latency-bound
  const float v2 = v * v, v4 = v2 * v2, v8 = v4 * v4;
  const float p0 = (-6.383100986e+00f + 1.162980747e+01f * v) + (-1.864168549e+01f + 2.000706673e+01f * v) * v2;
  const float p1 = (-1.243961096e+00f - 4.905348587e+01f * v) + (1.172027893e+02f - 1.592965546e+02f * v) * v2;
  const float p2 = (1.407332306e+02f - 7.989263153e+01f * v) + (2.654866409e+01f - 3.930428743e+00f * v) * v2;
  const float m = ((p0 + p1 * v4) + p2 * v8) * v;  // M(a): no constant term
  return 0.5f * exp(m - 0.5f * a * a);
}

inline float gelu(float x) {
  const float tail = normal_tail(magnitude(x));
  return x * (x < 0.0f ? tail : 1.0f - tail);
}

// gelu's derivative Phi(x) + x phi(x), phi the normal density: absolute error under 2e-7 (it
// crosses 0 near x = -0.75, so a relative bound means nothing there).
inline float gelu_grad(float x) {
  const float a = magnitude(x);
  const float tail = normal_tail(a);
  const float density = 0.398942280401432678f * exp(-0.5f * a * a);
  return (x < 0.0f ? tail : 1.0f - tail) + x * density;
}

}  // namespace fm
}  // namespace jt
