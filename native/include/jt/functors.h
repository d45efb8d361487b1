// Elementwise scalar functors: written once, used by the CPU loops and (JT_HOST_DEVICE) by CUDA.
// Adding an op: one functor here and one line in its JT_*_OPS list; Java's op registry (Ops.java) gives it a
// name, its dtype rule and (later) its derivative.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "jt/dtype.h"
#include "jt/float_math_wide.h"
// sin and cos in Windows host code are jtensor's own (sin_of below): fp::sin_cos_any
#if defined(_WIN32) && !defined(__CUDA_ARCH__)
#define JT_OWN_TRIG 1
#include "jt/trig_reduction.h"
#else
#define JT_OWN_TRIG 0
#endif

namespace jt {

// Scalar arguments of an op (alpha, slope, bounds...), as double and as exact int64.
struct Params {
  double f[4];
  int64_t i[4];
  template <typename T>
  JT_HOST_DEVICE T get(int k) const {
    if constexpr (std::is_floating_point<T>::value) return (T)f[k];
    else return (T)i[k];
  }
};

// float16/bfloat16 compute in float.
template <typename T> struct OpMath { using type = T; };
template <> struct OpMath<Half> { using type = float; };
template <> struct OpMath<BFloat16> { using type = float; };
template <typename T> using opmath_t = typename OpMath<T>::type;

template <typename T> constexpr bool kFloat = std::is_floating_point<T>::value;
template <typename T> constexpr bool kInt = std::is_integral<T>::value && !std::is_same<T, bool>::value;
template <typename T> constexpr bool kBool = std::is_same<T, bool>::value;
template <typename T> constexpr bool kNumeric = kFloat<T> || kInt<T>;

// Integer arithmetic wraps as two's complement, as PyTorch's does, computed in an unsigned type
// at least as wide as unsigned int: C++ signed overflow (and int promotion of small unsigned
// types) would be undefined. Floating types compute as written.
template <typename T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <typename T> JT_HOST_DEVICE T wrapping_add(T a, T b) {
  if constexpr (kInt<T>) return (T)(wrap_t<T>)((wrap_t<T>)a + (wrap_t<T>)b);
  else return (T)(a + b);
}
template <typename T> JT_HOST_DEVICE T wrapping_sub(T a, T b) {
  if constexpr (kInt<T>) return (T)(wrap_t<T>)((wrap_t<T>)a - (wrap_t<T>)b);
  else return (T)(a - b);
}
template <typename T> JT_HOST_DEVICE T wrapping_mul(T a, T b) {
  if constexpr (kInt<T>) return (T)(wrap_t<T>)((wrap_t<T>)a * (wrap_t<T>)b);
  else return (T)(a * b);
}

// Each functor: `template <class T> static constexpr bool ok` (which opmath types it has a kernel
// for), `static constexpr bool predicate` (true: the result is bool), and apply().
#define JT_FUNCTOR(name, okexpr, pred) \
  struct name##_op {                   \
    template <typename T> static constexpr bool ok = okexpr; \
    static constexpr bool predicate = pred;

// ---------------------------------------------------------------- unary
JT_FUNCTOR(neg, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) {
    if constexpr (kFloat<T>) return -a;  // 0 - 0.0 would be +0.0; PyTorch's neg(0.0) is -0.0
    else return wrapping_sub(T(0), a);
  }
};
JT_FUNCTOR(abs, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) {
    if constexpr (std::is_unsigned<T>::value) return a;
    else if constexpr (kFloat<T>) return a < T(0) ? -a : a == T(0) ? T(0) : a;  // abs(-0.0) is +0.0
    else return a < 0 ? wrapping_sub(T(0), a) : a;  // abs(INT_MIN) is INT_MIN, as PyTorch
  }
};
JT_FUNCTOR(sign, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) {  // NaN gives 0, as PyTorch's (NumPy's gives NaN)
    return (T)((T(0) < a) - (a < T(0)));
  }
};
// exp, log, log2, log10, log1p, expm1, tanh, erf, erfc, atan, sinh, cosh and atanh of float (and of
// float16/bfloat16, computed in float) on the CPU: jt/float_math.h's and jt/float_math_wide.h's,
// which the compiler vectorizes; libm's for double, the device's on CUDA. sin and cos: sin_of below.
#ifdef __CUDA_ARCH__
#define JT_FLOAT_MATH_HERE false
#else
#define JT_FLOAT_MATH_HERE true
#endif
#define JT_FLOAT_MATH_OF(name)                                                          \
  template <typename T> JT_HOST_DEVICE T name##_of(T a) {                               \
    if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value) return fm::name(a); \
    else return std::name(a);                                                           \
  }
JT_FLOAT_MATH_OF(exp)
JT_FLOAT_MATH_OF(log)
JT_FLOAT_MATH_OF(log2)
JT_FLOAT_MATH_OF(log10)
JT_FLOAT_MATH_OF(log1p)
JT_FLOAT_MATH_OF(expm1)
JT_FLOAT_MATH_OF(tanh)
JT_FLOAT_MATH_OF(erf)
JT_FLOAT_MATH_OF(erfc)
JT_FLOAT_MATH_OF(atan)
JT_FLOAT_MATH_OF(sinh)
JT_FLOAT_MATH_OF(cosh)
JT_FLOAT_MATH_OF(atanh)
// gelu of float on the CPU: fm::gelu (one exp, no division, accurate for negative x too); elsewhere
// its definition, 0.5 x (1 + erf(x / sqrt 2)).
template <typename T> JT_HOST_DEVICE T gelu_of(T a) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value) return fm::gelu(a);
  else return a * T(0.5) * (T(1) + erf_of(a * T(0.70710678118654752440)));
}
// gelu's derivative, Phi(x) + x phi(x): fm::gelu_grad for float on the CPU (one tail, two exps).
template <typename T> JT_HOST_DEVICE T gelu_grad_of(T a) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value) return fm::gelu_grad(a);
  else return T(0.5) * (T(1) + erf_of(a * T(0.70710678118654752440))) + a * exp_of(T(-0.5) * a * a) * T(0.39894228040143267794);
}
// erfinv (torch.erfinv): Giles' single-precision approximation ("Approximating the erfinv function",
// GPU Computing Gems Jade, 2011), then four Newton steps in double: on erf below |y| = 1/2, on
// log erfc above, where 1 - |y| is exact and erf(x) - y would have lost the digits a step needs
// (Giles' tail, made for float, starts 3% off at 1 - 2^-53; the steps reach PyTorch's value). Odd
// (erfinv(-0) = -0); +-1 give +-inf; NaN and |y| > 1 give NaN. Every dtype computes in double; a
// float (or narrower) input takes one step, not four: within float's range Giles' start is float's
// own accuracy, one step in double squares its error, and the float nearest the result was the
// four steps' at every 13th float of [0, 1) (82 million; 45 ns an element instead of 200). On the CPU a float is
// fm::erfinv's instead (jt/float_math_wide.h: a fit in double, vectorized, within 0.51 ulp).
JT_HOST_DEVICE inline double erfinv_double(double y, int steps = 4) {
  const double ay = std::fabs(y);
  if (!(ay < 1.0)) return ay == 1.0 ? std::copysign(HUGE_VAL, y) : (double)NAN;  // NaN in, or past 1
  double w = -std::log((1.0 - ay) * (1.0 + ay)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w; p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w; p = -0.00417768164 + p * w; p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w; p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w; p = 0.00943887047 + p * w; p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  double x = p * ay;
  constexpr double two_over_sqrt_pi = 1.12837916709551257390;
  const double log_tail = ay <= 0.5 ? 0.0 : std::log(1.0 - ay);
  for (int i = 0; i < steps; ++i) {
    const double slope = two_over_sqrt_pi * std::exp(-x * x);
    if (ay <= 0.5) {
      x -= (std::erf(x) - ay) / slope;
    } else {  // on log erfc, nearly quadratic in x where erfc itself falls like exp(-x^2)
      const double e = std::erfc(x);
      x += (std::log(e) - log_tail) * e / slope;
    }
  }
  return std::copysign(x, y);
}
template <typename T> JT_HOST_DEVICE T erfinv_of(T a) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value) return fm::erfinv(a);
  else return (T)erfinv_double((double)a, sizeof(T) <= 4 ? 1 : 4);
}
// sin and cos: of a float below 2^20 on the CPU, fm::sin_cos_reduced (vectorized: sin_op and cos_op
// below give it to the loops as their common case); otherwise the C library's, except in Windows
// host code. MinGW's are x87's fsin and fcos,
// which reduce with a 66-bit pi: float64 near multiples of pi/2 was off by up to 6e14 ulp, and
// every float64 angle above 2^20 by 1e5 to 1e18 ulp, float above 2^32 too (kernels_test; a sweep
// of MinGW's other float and float64 functions found them within 2 ulp of glibc's). There
// fp::sin_cos_any (jt/trig_reduction.h, JT_OWN_TRIG above) computes float64's, and float's from
// 2^20 up, within 1 ulp.
template <typename T> JT_HOST_DEVICE T sin_of(T a) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value)
    if (std::fabs(a) < fm::sin_cos_reduces) return fm::sin_cos_reduced(a, false);
#if JT_OWN_TRIG
  if constexpr (std::is_same<T, double>::value) return fp::sin_cos_any(a, true);
  if constexpr (std::is_same<T, float>::value) if (std::fabs(a) >= 0x1p20f) return (float)fp::sin_cos_any(a, true);
#endif
  return std::sin(a);
}
template <typename T> JT_HOST_DEVICE T cos_of(T a) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value)
    if (std::fabs(a) < fm::sin_cos_reduces) return fm::sin_cos_reduced(a, true);
#if JT_OWN_TRIG
  if constexpr (std::is_same<T, double>::value) return fp::sin_cos_any(a, false);
  if constexpr (std::is_same<T, float>::value) if (std::fabs(a) >= 0x1p20f) return (float)fp::sin_cos_any(a, false);
#endif
  return std::cos(a);
}
#define JT_FLOAT_UNARY(name, expr)                                          \
  JT_FUNCTOR(name, kFloat<T>, false)                                        \
    template <typename T> static JT_HOST_DEVICE T apply(T a, const Params& p) { (void)p; return expr; } \
  };
JT_FLOAT_UNARY(reciprocal, T(1) / a)
JT_FLOAT_UNARY(exp, exp_of(a))
JT_FLOAT_UNARY(exp2, std::exp2(a))
JT_FLOAT_UNARY(log, log_of(a))
JT_FLOAT_UNARY(log2, log2_of(a))
JT_FLOAT_UNARY(log1p, log1p_of(a))
JT_FLOAT_UNARY(expm1, expm1_of(a))
JT_FLOAT_UNARY(sqrt, std::sqrt(a))
JT_FLOAT_UNARY(rsqrt, T(1) / std::sqrt(a))
// sin and cos of float on the CPU in two parts for elementwise.cpp's loops: common(), vectorized and
// right where rare() is false, then apply() where it is true (|x| from 2^20, inf, NaN)
#define JT_FLOAT_TRIG(name, cosine)                                                          \
  JT_FUNCTOR(name, kFloat<T>, false)                                                         \
    template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) { return name##_of(a); } \
    static float common(float a) { return fm::sin_cos_reduced(a, cosine); }                  \
    static bool rare(float a) { return !(std::fabs(a) < fm::sin_cos_reduces); }             \
  };
JT_FLOAT_TRIG(sin, false)
JT_FLOAT_TRIG(cos, true)
JT_FLOAT_UNARY(tan, std::tan(a))
JT_FLOAT_UNARY(asin, std::asin(a))
JT_FLOAT_UNARY(acos, std::acos(a))
JT_FLOAT_UNARY(atan, atan_of(a))
JT_FLOAT_UNARY(tanh, tanh_of(a))
JT_FLOAT_UNARY(sigmoid, T(1) / (T(1) + exp_of(-a)))
JT_FLOAT_UNARY(erf, erf_of(a))
JT_FLOAT_UNARY(erfinv, erfinv_of(a))
JT_FLOAT_UNARY(floor, std::floor(a))
JT_FLOAT_UNARY(ceil, std::ceil(a))
JT_FLOAT_UNARY(round, std::nearbyint(a))  // half to even, as torch.round
JT_FLOAT_UNARY(trunc, std::trunc(a))
JT_FLOAT_UNARY(gelu, gelu_of(a))
JT_FLOAT_UNARY(gelu_tanh, T(0.5) * a * (T(1) + tanh_of(T(0.79788456080286535588) * (a + T(0.044715) * a * a * a))))
JT_FLOAT_UNARY(silu, a / (T(1) + exp_of(-a)))
// softplus(beta = f[0], threshold = f[1]): linear above the threshold, as PyTorch
// c ? a : b, both sides computed: for float on the CPU a select on the bits (fm::pick), so a loop
// whose two sides call fm's functions still vectorizes
template <typename T> JT_HOST_DEVICE T select_of(bool c, T a, T b) {
  if constexpr (JT_FLOAT_MATH_HERE && std::is_same<T, float>::value) return fm::pick(c, a, b);
  else return c ? a : b;
}
JT_FLOAT_UNARY(softplus, select_of(a * p.get<T>(0) > p.get<T>(1), a, log1p_of(exp_of(a * p.get<T>(0))) / p.get<T>(0)))
JT_FLOAT_UNARY(leaky_relu, a > T(0) ? a : a * p.get<T>(0))
// elu(alpha = f[0], scale = f[1], input_scale = f[2]), PyTorch's elu kernel behind elu, selu and celu:
// scale x above 0, else expm1(x input_scale) (alpha scale), its coefficient rounded in T as PyTorch's
JT_FLOAT_UNARY(elu, select_of(a > T(0), a * p.get<T>(1), expm1_of(a * p.get<T>(2)) * (p.get<T>(0) * p.get<T>(1))))
// nan_to_num: NaN, +inf and -inf replaced by f[0], f[1], f[2] (the caller gives the dtype's max and lowest by default)
JT_FLOAT_UNARY(nan_to_num, a != a ? p.get<T>(0) : a - a == a - a ? a : a > T(0) ? p.get<T>(1) : p.get<T>(2))
JT_FUNCTOR(relu, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) {
    if constexpr (kFloat<T>) if (a != a) return a;
    return a < T(0) ? T(0) : a;  // relu(-0.0) is -0.0, as PyTorch's clamp_min
  }
};
// clamp to [f/i 0, f/i 1]; has_min/has_max in i[2], i[3]; NaN propagates
JT_FUNCTOR(clamp_scalar, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params& p) {
    if constexpr (kFloat<T>) if (a != a) return a;
    if (p.i[2] && a < p.get<T>(0)) a = p.get<T>(0);
    if (p.i[3] && a > p.get<T>(1)) a = p.get<T>(1);
    return a;
  }
};
JT_FUNCTOR(bitwise_not, kInt<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, const Params&) {
    if constexpr (kBool<T>) return !a;
    else return (T)~a;
  }
};
JT_FUNCTOR(logical_not, true, true)
  template <typename T> static JT_HOST_DEVICE bool apply(T a, const Params&) { return !(a != T(0)); }
};
JT_FUNCTOR(isnan, true, true)
  template <typename T> static JT_HOST_DEVICE bool apply(T a, const Params&) { return a != a; }
};
// x - x is 0 for every finite x (and every integer), NaN for an infinity or a NaN: no libm call, so
// one definition serves the host and the device.
JT_FUNCTOR(isinf, true, true)
  template <typename T> static JT_HOST_DEVICE bool apply(T a, const Params&) {
    if constexpr (kFloat<T>) return a == a && !(a - a == a - a);
    else return false;
  }
};
JT_FUNCTOR(isfinite, true, true)
  template <typename T> static JT_HOST_DEVICE bool apply(T a, const Params&) {
    if constexpr (kFloat<T>) return a - a == a - a;
    else return true;
  }
};

#define JT_UNARY_OPS(X)                                                                       \
  X(neg) X(abs) X(sign) X(reciprocal) X(exp) X(exp2) X(log) X(log2) X(log1p) X(expm1) X(sqrt) \
  X(rsqrt) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(tanh) X(sigmoid) X(erf) X(floor)    \
  X(ceil) X(round) X(trunc) X(gelu) X(gelu_tanh) X(silu) X(softplus) X(leaky_relu) X(elu)      \
  X(nan_to_num) X(relu) X(clamp_scalar) X(bitwise_not) X(logical_not) X(isnan) X(isinf)        \
  X(isfinite) X(erfinv) JT_SPECIAL_UNARY_OPS(X)

// lerp rounded once, as PyTorch's CPU lerp_vec (fmadd(w < 0.5 ? w : w - 1, end - start, start or
// end)) and its contracted scalar and CUDA forms: two roundings differed from PyTorch's in about one
// float32 element in ten (quantile's interpolation with them).
template <typename T>
JT_HOST_DEVICE inline T lerp_fma(T a, T b, T w) {
  return std::abs(w) < T(0.5) ? std::fma(w, b - a, a) : std::fma(w - T(1), b - a, b);
}

// ---------------------------------------------------------------- binary
// add/sub take alpha (f[0] / i[0]): a + alpha * b. Floating a + alpha * b rounds once (fma), as
// PyTorch's CPU kernels (Vectorized fmadd) and CUDA's (contracted) do: two roundings differed from
// PyTorch's in about one element in eleven (float32 add(x, y, alpha = 0.1)); fma(1, b, a) is a + b.
JT_FUNCTOR(add, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params& p) {
    if constexpr (kBool<T>) return a || (b && p.i[0] != 0);
    else if constexpr (kFloat<T>) return std::fma(p.get<T>(0), b, a);
    else return wrapping_add(a, wrapping_mul(p.get<T>(0), b));
  }
};
JT_FUNCTOR(sub, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params& p) {
    if constexpr (kFloat<T>) return std::fma(-p.get<T>(0), b, a);
    else return wrapping_sub(a, wrapping_mul(p.get<T>(0), b));
  }
};
JT_FUNCTOR(mul, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kBool<T>) return a && b;
    else return wrapping_mul(a, b);
  }
};
JT_FUNCTOR(div, kFloat<T>, false)  // true division; integer inputs arrive as floats
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return a / b; }
};
JT_FUNCTOR(div_trunc, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) return std::trunc(a / b);
    else return b == 0 ? T(0) : (std::is_signed<T>::value && b == T(-1)) ? wrapping_sub(T(0), a) : (T)(a / b);
  }
};
// floor division (floor_divide and rounding_mode="floor")
JT_FUNCTOR(div_floor, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) {
      if (b == T(0)) return a / b;
      T mod = std::fmod(a, b), div = (a - mod) / b;
      if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
      T fl = std::floor(div);
      if (div - fl > T(0.5)) fl += T(1);
      return div == T(0) ? std::copysign(T(0), a / b) : fl;
    } else {
      if (b == 0) return T(0);  // PyTorch raises ZeroDivisionError; Java checks before the call
      if (std::is_signed<T>::value && b == T(-1)) return wrapping_sub(T(0), a);  // INT_MIN / -1 wraps
      T q = (T)(a / b), r = (T)(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? (T)(q - 1) : q;
    }
  }
};
// Python's modulo: the result takes the divisor's sign
JT_FUNCTOR(remainder, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) {
      T m = std::fmod(a, b);
      return (m != T(0) && ((b < T(0)) != (m < T(0)))) ? m + b : m;
    } else {
      if (b == 0) return T(0);
      if (std::is_signed<T>::value && b == T(-1)) return T(0);
      T m = (T)(a % b);
      return (m != 0 && ((b < 0) != (m < 0))) ? (T)(m + b) : m;
    }
  }
};
JT_FUNCTOR(pow, kNumeric<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) {
      return std::pow(a, b);
    } else {  // exponentiation by squaring; negative exponents: 1/a truncated, as PyTorch
      if (b < 0) return a == 1 ? T(1) : (a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0));
      T r = 1;
      uint64_t e = (uint64_t)b;
      while (e) {
        if (e & 1) r = (T)(r * a);
        a = (T)(a * a);
        e >>= 1;
      }
      return r;
    }
  }
};
JT_FUNCTOR(atan2, kFloat<T>, false)  // integer inputs arrive as floats
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return std::atan2(a, b); }
};
JT_FUNCTOR(maximum, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) if (a != a || b != b) return a != a ? a : b;
    return a > b ? a : b;
  }
};
JT_FUNCTOR(minimum, kNumeric<T> || kBool<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) {
    if constexpr (kFloat<T>) if (a != a || b != b) return a != a ? a : b;
    return a < b ? a : b;
  }
};
#define JT_BITWISE(name, op)                                            \
  JT_FUNCTOR(name, kInt<T> || kBool<T>, false)                          \
    template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params&) { return (T)(a op b); } \
  };
JT_BITWISE(bitwise_and, &)
JT_BITWISE(bitwise_or, |)
JT_BITWISE(bitwise_xor, ^)
#define JT_COMPARE(name, op)                                            \
  JT_FUNCTOR(name, true, true)                                          \
    template <typename T> static JT_HOST_DEVICE bool apply(T a, T b, const Params&) { return a op b; } \
  };
JT_COMPARE(eq, ==)
JT_COMPARE(ne, !=)
JT_COMPARE(lt, <)
JT_COMPARE(le, <=)
JT_COMPARE(gt, >)
JT_COMPARE(ge, >=)
#define JT_LOGICAL(name, op)                                            \
  JT_FUNCTOR(name, true, true)                                          \
    template <typename T> static JT_HOST_DEVICE bool apply(T a, T b, const Params&) { return (a != T(0)) op (b != T(0)); } \
  };
JT_LOGICAL(logical_and, &&)
JT_LOGICAL(logical_or, ||)
JT_LOGICAL(logical_xor, !=)

// gelu's backward as one kernel, (grad, x) -> grad * gelu'(x), where the composite took eight ops
JT_FUNCTOR(gelu_backward, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T g, T x, const Params&) { return g * gelu_grad_of(x); }
};

// relu's backward as one kernel, (grad, result) -> grad where result > 0, else 0: PyTorch's
// threshold_backward (a NaN result passes its gradient), where the composite took a comparison, a
// bool-to-float copy and a product
JT_FUNCTOR(relu_backward, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T g, T r, const Params&) { return r <= T(0) ? T(0) : g; }
};

// lerp with a scalar weight (f[0]), which float16/bfloat16 take in float as PyTorch's opmath does
JT_FUNCTOR(lerp_scalar, kFloat<T>, false)
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, const Params& p) {
    return lerp_fma(a, b, p.get<T>(0));
  }
};
#define JT_BINARY_OPS(X)                                                                    \
  X(add) X(sub) X(mul) X(div) X(div_trunc) X(div_floor) X(remainder) X(pow) X(atan2) X(maximum) \
  X(minimum) X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(eq) X(ne) X(lt) X(le) X(gt) X(ge) \
  X(logical_and) X(logical_or) X(logical_xor) X(gelu_backward) X(relu_backward) X(lerp_scalar)      \
  JT_SPECIAL_BINARY_OPS(X)

// ---------------------------------------------------------------- ternary (same-dtype operands)
JT_FUNCTOR(lerp, kFloat<T>, false)  // start + weight * (end - start), stable at both ends
  template <typename T> static JT_HOST_DEVICE T apply(T a, T b, T w, const Params&) {
    return lerp_fma(a, b, w);
  }
};
JT_FUNCTOR(clamp, kNumeric<T>, false)  // clamp(x, min tensor, max tensor)
  template <typename T> static JT_HOST_DEVICE T apply(T x, T lo, T hi, const Params&) {
    if constexpr (kFloat<T>) if (x != x || lo != lo || hi != hi) return x != x ? x : (lo != lo ? lo : hi);
    T r = x < lo ? lo : x;  // max(x, lo) first, then min(., hi): lo > hi gives hi, as PyTorch
    return r > hi ? hi : r;
  }
};

#define JT_TERNARY_OPS(X) X(lerp) X(clamp)

}  // namespace jt

#include "jt/special_functors.h"  // the lists above take its JT_SPECIAL_*_OPS in
