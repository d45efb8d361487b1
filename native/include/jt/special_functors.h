// The less common activations and special functions, as scalar functors shared by the CPU loops
// and CUDA (functors.h's conventions; its JT_*_OPS lists take these lists in). Each computes what
// PyTorch 2.13's CPU kernel computes, in the same order of operations, in the op-math type
// (float for float16/bfloat16).
#pragma once
#include "jt/bessel_functors.h"

namespace jt {

// ---------------------------------------------------------------- activations (unary)
// hardswish/hardsigmoid: min(max(x + 3, 0), 6) / 6, divided (not times 1/6), as PyTorch's
template <typename T> JT_HOST_DEVICE T relu6_of(T a) {
  const T r = a + T(3);
  return r < T(0) ? T(0) : r > T(6) ? T(6) : r;
}
JT_FLOAT_UNARY(hardswish, a * relu6_of(a) / T(6))
JT_FLOAT_UNARY(hardsigmoid, relu6_of(a) / T(6))
JT_FLOAT_UNARY(mish, a * tanh_of(log1p_of(exp_of(a))))
// log(sigmoid(x)) = min(x, 0) - log1p(e^-|x|): no overflow at either end
JT_FLOAT_UNARY(log_sigmoid, (a < T(0) ? a : T(0)) - log1p_of(exp_of(-std::fabs(a))))
// hardshrink(lambd = f[0]): 0 within [-lambd, lambd]; softshrink also moves the rest lambd toward 0
JT_FLOAT_UNARY(hardshrink, (a >= -p.get<T>(0) && a <= p.get<T>(0)) ? T(0) : a)
JT_FLOAT_UNARY(softshrink, a > p.get<T>(0) ? a - p.get<T>(0) : a < -p.get<T>(0) ? a + p.get<T>(0) : T(0) * a)
// threshold(threshold = f/i 0, value = f/i 1): value at and below the threshold (NaN kept)
JT_FUNCTOR(threshold, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params& p) { return a <= p.get<T>(0) ? p.get<T>(1) : a; }
};

// ---------------------------------------------------------------- special functions (unary)
JT_FLOAT_UNARY(frac, a - std::trunc(a))
JT_FLOAT_UNARY(lgamma, std::lgamma(a))
// sin(pi x) / (pi x), 1 at 0; pi rounded to T first, as PyTorch's c10::pi<T>
JT_FLOAT_UNARY(sinc, a == T(0) ? T(1) : sin_of(T(3.14159265358979323846) * a) / (T(3.14159265358979323846) * a))

// digamma: Cephes' psi, as PyTorch's calc_digamma: the reflection below 0 (its tan in double), the
// recurrence up to 10, then the asymptotic series.
template <typename T> JT_HOST_DEVICE T digamma_of(T x) {
  if (x == T(0)) return std::copysign(T(INFINITY), -x);
  T result = T(0);
  if (x < T(0)) {
    if (x == std::trunc(x)) return T(NAN);
    const double r = (double)x - std::trunc((double)x);
    result = -(T)(3.14159265358979323846 / std::tan(3.14159265358979323846 * r));
    x = T(1) - x;
  }
  T acc = T(0);
  while (x < T(10)) {
    acc -= T(1) / x;
    x += T(1);
  }
  if (x == T(10)) return (acc + T(2.25175258906672110764)) + result;
  T y = T(0);
  if (x < T(1.0e17)) {
    const T z = T(1) / (x * x);
    T poly = T(8.33333333333333333333E-2);
    poly = poly * z + T(-2.10927960927960927961E-2);
    poly = poly * z + T(7.57575757575757575758E-3);
    poly = poly * z + T(-4.16666666666666666667E-3);
    poly = poly * z + T(3.96825396825396825397E-3);
    poly = poly * z + T(-8.33333333333333333333E-3);
    poly = poly * z + T(8.33333333333333333333E-2);
    y = z * poly;
  }
  return (acc + std::log(x) - (T(0.5) / x) - y) + result;
}
JT_FLOAT_UNARY(digamma, digamma_of(a))
// trigamma (digamma's derivative), as PyTorch's calc_trigamma: reflection below 1/2, six steps of
// the recurrence, then the asymptotic series
template <typename T> JT_HOST_DEVICE T trigamma_of(T x) {
  const T pi = T(3.14159265358979323846);
  T sign = T(1), result = T(0);
  if (x < T(0.5)) {
    sign = T(-1);
    const T s = std::sin(pi * x);
    result -= (pi * pi) / (s * s);
    x = T(1) - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += T(1) / (x * x);
    x += T(1);
  }
  const T ixx = T(1) / (x * x);
  result += (T(1) + T(1) / (T(2) * x) + ixx * (T(1) / T(6) - ixx * (T(1) / T(30) - ixx * (T(1) / T(42))))) / x;
  return sign * result;
}
JT_FLOAT_UNARY(trigamma, trigamma_of(a))

// Hurwitz zeta(x, q), Cephes' as PyTorch's zeta: the sum's first terms, then Euler-Maclaurin. Summed
// in double on the CPU (PyTorch's acc_type there), in T on the device (its CUDA one)
template <typename T> JT_HOST_DEVICE T zeta_of(T xt, T qt) {
#ifdef __CUDA_ARCH__
  using A = T;
#else
  using A = double;
#endif
  const A kA[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                  -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                  1.8152105401943546773e17, -7.1661652561756670113e18};
  const A machep = A(1.11022302462515654042E-16), x = A(xt), q = A(qt);
  if (x == A(1)) return T(INFINITY);
  if (x < A(1)) return T(NAN);
  if (q <= A(0)) {
    if (q == std::floor(q)) return T(INFINITY);
    if (x != std::floor(x)) return T(NAN);
  }
  A s = std::pow(q, -x), a = q, b = A(0);
  int i = 0;
  while (i < 9 || a <= A(9)) {
    i += 1;
    a += A(1);
    b = std::pow(a, -x);
    s += b;
    if (-machep * s < b && b < machep * s) return T(s);
  }
  const A w = a;
  s += b * w / (x - A(1));
  s -= A(0.5) * b;
  a = A(1);
  A k = A(0);
  for (i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    A t = a * b / kA[i];
    s = s + t;
    t = std::fabs(t / s);
    if (t < machep) return T(s);
    k += A(1);
    a *= x + k;
    b /= w;
    k += A(1);
  }
  return T(s);
}
// polygamma(n = f[0], x): digamma and trigamma for n 0 and 1, else (-1)^(n+1) n! zeta(n + 1, x), as PyTorch's
template <typename T> JT_HOST_DEVICE T polygamma_of(T x, int n) {
  if (n == 0) return digamma_of(x);
  if (n == 1) return trigamma_of(x);
  return ((n % 2) ? T(1) : T(-1)) * std::exp(std::lgamma(T(n) + T(1))) * zeta_of(T(n + 1), x);
}
JT_FLOAT_UNARY(polygamma, polygamma_of(a, (int)p.f[0]))

// hyperbolic functions, log10 and erfc: float's sinh, cosh, atanh, log10 and erfc from jt/float_math.h
// and jt/float_math_wide.h on the CPU (vectorized, as PyTorch's Sleef ones), the rest the C library's
// (CUDA's on the device)
JT_FLOAT_UNARY(sinh, sinh_of(a))
JT_FLOAT_UNARY(cosh, cosh_of(a))
JT_FLOAT_UNARY(asinh, std::asinh(a))
JT_FLOAT_UNARY(acosh, std::acosh(a))
JT_FLOAT_UNARY(atanh, atanh_of(a))
JT_FLOAT_UNARY(log10, log10_of(a))
JT_FLOAT_UNARY(erfc, erfc_of(a))
// signbit: the sign bit of a float (-0.0 and a negative NaN set it), x < 0 for integers, false for bool
JT_FUNCTOR(signbit, true, true)
  template <typename T> static JT_HOST_DEVICE bool apply(T a, const Params&) {
    if constexpr (kFloat<T>) return std::signbit(a);
    else if constexpr (std::is_signed<T>::value) return a < T(0);
    else return false;
  }
};

// frexp's two results, one kernel each: the mantissa in [0.5, 1) with x's sign, and the exponent as a
// value of T (exact; Java narrows it to int32); inf, NaN and ±0 give themselves and exponent 0, as PyTorch's
template <typename T> JT_HOST_DEVICE T frexp_of(T a, bool exponent) {
  if (!(a - a == a - a) || a == T(0)) return exponent ? T(0) : a;
  int e = 0;
  const T m = std::frexp(a, &e);
  return exponent ? T(e) : m;
}
JT_FLOAT_UNARY(frexp_mantissa, frexp_of(a, false))
JT_FLOAT_UNARY(frexp_exponent, frexp_of(a, true))

#define JT_SPECIAL_UNARY_OPS(X) \
  X(hardswish) X(hardsigmoid) X(mish) X(log_sigmoid) X(hardshrink) X(softshrink) X(threshold) X(frac) X(lgamma) X(sinc) X(digamma) X(trigamma) \
  X(sinh) X(cosh) X(asinh) X(acosh) X(atanh) X(log10) X(erfc) X(signbit) X(polygamma) JT_BESSEL_UNARY_OPS(X) X(frexp_mantissa) X(frexp_exponent)

// ---------------------------------------------------------------- binary
JT_FUNCTOR(hypot, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return std::hypot(a, b); }
};
// log(e^a + e^b) as max + log1p(e^-|a - b|); equal infinities give themselves (their difference is NaN)
JT_FUNCTOR(logaddexp, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if (std::isinf(a) && a == b) return a;
    const T m = a < b ? b : a;  // std::max(a, b); a NaN gives NaN through a - b
    return m + log1p_of(exp_of(-std::fabs(a - b)));
  }
};
JT_FUNCTOR(logaddexp2, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if (std::isinf(a) && a == b) return a;
    const T m = a < b ? b : a;
    // / log(2), rounded once with the sum (std::fma), as PyTorch's compiled kernel contracts it
    return std::fma(std::log1p(std::exp2(-std::fabs(a - b))), T(1.44269504088896340736), m);
  }
};
// x log y, 0 where x is 0 (even for y 0 or inf) unless y is NaN
JT_FUNCTOR(xlogy, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T x, T y, const Params&) {
    if (y != y) return y;
    if (x == T(0)) return T(0);
    return x * log_of(y);
  }
};
JT_FUNCTOR(copysign, kFloat<T>, false)  // integer inputs arrive as floats
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return std::copysign(a, b); }
};
// fmod: the remainder truncated toward zero (C's), its sign the dividend's; integer division by 0 is
// refused before the kernel (Ops.dividesIntegers)
JT_FUNCTOR(fmod, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) return std::fmod(a, b);
    else if constexpr (std::is_signed<T>::value) return b == T(-1) ? T(0) : (T)(a % b);  // INT_MIN % -1 overflows in C
    else return (T)(a % b);
  }
};
// heaviside(x, values): 0 below 0, 1 above, values at 0 (a NaN x gives 0, as PyTorch's x > 0)
JT_FUNCTOR(heaviside, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kBool<T>) return a ? true : b;
    else return a == T(0) ? b : (T)(a > T(0));
  }
};

// fmax/fmin: NaN only where both are; else the larger (smaller), the first of two equals (so -0.0
// against 0.0 gives the first), as PyTorch's
JT_FUNCTOR(fmax, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) if (a != a || b != b) return a != a ? b : a;
    return b > a ? b : a;
  }
};
JT_FUNCTOR(fmin, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) if (a != a || b != b) return a != a ? b : a;
    return b < a ? b : a;
  }
};
// |a| wrapped in the dtype as C's std::abs leaves it there (int8 -128 stays -128), without signed overflow
template <typename T> JT_HOST_DEVICE T abs_wrapped(T a) {
  if constexpr (std::is_signed<T>::value) return a < T(0) ? (T)(0 - (typename std::make_unsigned<T>::type)a) : a;
  else return a;
}
// Euclid's algorithm on |a| and |b|, PyTorch's (c10's calc_gcd): gcd(0, 0) is 0, int8's gcd(-128, 0) is -128
template <typename T> JT_HOST_DEVICE T gcd_of(T a, T b) {
  a = abs_wrapped(a), b = abs_wrapped(b);
  while (a != T(0)) {
    const T c = a;
    if constexpr (std::is_signed<T>::value) a = a == T(-1) ? T(0) : (T)(b % a);  // b % -1 is 0 (INT64_MIN % -1 would trap)
    else a = (T)(b % a);
    b = c;
  }
  return b;
}
JT_FUNCTOR(gcd, kInt<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return gcd_of(a, b); }
};
// |a / gcd · b|, 0 where the gcd is: computed as C computes PyTorch's expression (int8 and int16 in
// int, then narrowed: int8's lcm(100, 3) is 44), wider types wrapping
JT_FUNCTOR(lcm, kInt<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    using W = typename std::conditional<(sizeof(T) < sizeof(int)), int, T>::type;
    using U = typename std::make_unsigned<W>::type;
    const T g = gcd_of(a, b);
    if (g == T(0)) return T(0);
    const W q = std::is_signed<T>::value && g == T(-1) ? (W)(U(0) - (U)(W)a) : (W)((W)a / (W)g);  // MIN / -1 would trap
    return (T)abs_wrapped((W)((U)q * (U)(W)b));
  }
};

// x log1p(y), 0 where x is 0 (even for y -1 or inf) unless y is NaN, as PyTorch's xlog1py
JT_FUNCTOR(xlog1py, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T x, T y, const Params&) {
    if (y != y) return y;
    if (x == T(0)) return T(0);
    return x * log1p_of(y);
  }
};
// shifts as PyTorch's (BinaryOpsKernel): a count below 0 or at least the width shifts everything out,
// leaving 0 to the left and the sign to the right; otherwise C's shift, the left one in an unsigned type
template <typename T> JT_HOST_DEVICE bool shifts_out(T b) {
  if constexpr (std::is_signed<T>::value) if (b < T(0)) return true;
  return (unsigned long long)b >= sizeof(T) * 8;
}
JT_FUNCTOR(bitwise_left_shift, kInt<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if (shifts_out(b)) return T(0);
    return (T)((wrap_t<T>)a << (int)b);
  }
};
JT_FUNCTOR(bitwise_right_shift, kInt<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if (shifts_out(b)) return std::is_signed<T>::value && a < T(0) ? T(-1) : T(0);
    return (T)(a >> (int)b);
  }
};
// the next representable value after a toward b (b where they are equal, so ±0 toward ∓0 gives b);
// float and double only: Java refuses float16/bfloat16, whose neighbours their float op math would miss
JT_FUNCTOR(nextafter, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return std::nextafter(a, b); }
};

// ldexp(x, e) = x · 2^e. An integer exponent (f[0] = 1) scales exactly, so 1e-30f · 2^150 is finite
// though 2^150 is not a float, after wrapping to int32 as PyTorch's (int64 2^32 + 3 is 3); a float one
// multiplies by exp2(e), as PyTorch's (0 · 2^inf is NaN there)
JT_FUNCTOR(ldexp, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T e, const Params& p) {
    if (p.f[0] == 0) return a * std::exp2(e);
    const double d = (double)e;  // an integer's value, exact below 2^24 (float) or 2^53 (double)
    const long long w = d >= 9223372036854775807.0 ? 9223372036854775807LL : d <= -9223372036854775807.0 ? (-9223372036854775807LL - 1) : (long long)d;
    return std::ldexp(a, (int)(unsigned)(unsigned long long)w);
  }
};

#define JT_SPECIAL_BINARY_OPS(X) X(hypot) X(logaddexp) X(logaddexp2) X(xlogy) X(copysign) X(fmod) X(heaviside) \
  X(fmax) X(fmin) X(gcd) X(lcm) X(xlog1py) X(bitwise_left_shift) X(bitwise_right_shift) X(nextafter) X(ldexp)

}  // namespace jt
