// Element types shared by every kernel. The numeric codes are the ordinals of org.jtensor.DType.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__)
#define JT_HOST_DEVICE __host__ __device__
#else
#define JT_HOST_DEVICE
#endif

// Unrolls a short loop of constant trip count completely: on the CPU, so that a loop around it
// vectorizes.
#if defined(__CUDA_ARCH__)
#define JT_UNROLL _Pragma("unroll")
#else
#define JT_UNROLL _Pragma("GCC unroll 16")
#endif

namespace jt {

inline JT_HOST_DEVICE uint32_t float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline JT_HOST_DEVICE float bits_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// IEEE binary16, converted with round-to-nearest-even.
struct Half {
  uint16_t x;
  Half() = default;
  JT_HOST_DEVICE Half(float f) : x(from_float(f)) {}
  JT_HOST_DEVICE operator float() const { return to_float(x); }

  static JT_HOST_DEVICE uint16_t from_float(float f) {
    uint32_t u = float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) return sign | 0x7c00u | (a > 0x7f800000u ? 0x0200u : 0u);  // inf / nan
    if (a >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65536: overflow to inf
    if (a < 0x38800000u) {  // result is subnormal or zero: add 0.5 so the FPU rounds for us
      float r = bits_float(a) + 0.5f;
      return sign | (uint16_t)(float_bits(r) - 0x3f000000u);
    }
    uint32_t mant_odd = (a >> 13) & 1u;
    a += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
    return sign | (uint16_t)(a >> 13);
  }
  static JT_HOST_DEVICE float to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {  // zero or subnormal: mant * 2^-24
      float v = (float)mant * 5.9604644775390625e-08f;
      return sign ? -v : v;
    }
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};

// bfloat16: the top half of a float32, rounded to nearest even; NaN stays a quiet NaN.
struct BFloat16 {
  uint16_t x;
  BFloat16() = default;
  JT_HOST_DEVICE BFloat16(float f) : x(from_float(f)) {}
  JT_HOST_DEVICE operator float() const { return bits_float((uint32_t)x << 16); }

  static JT_HOST_DEVICE uint16_t from_float(float f) {
    uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
  }
};

// The one dtype table: X(ctype, enumerator), in code order. The enum, every size, name and kind,
// and every per-dtype kernel come from it; Java reads the names, sizes and kinds from it at load.
// A dtype's name is its enumerator in lower case (Float32 -> "float32"), as torch spells it.
#define JT_FORALL_DTYPES(X)                                                       \
  X(bool, Bool) X(uint8_t, UInt8) X(int8_t, Int8) X(int16_t, Int16)               \
  X(int32_t, Int32) X(int64_t, Int64) X(jt::Half, Float16) X(jt::BFloat16, BFloat16) \
  X(float, Float32) X(double, Float64)

enum class DType : int {
#define JT_DTYPE_ENUM(ctype, name) name,
  JT_FORALL_DTYPES(JT_DTYPE_ENUM)
#undef JT_DTYPE_ENUM
};
#define JT_DTYPE_COUNT(ctype, name) +1
constexpr int kNumDTypes = 0 JT_FORALL_DTYPES(JT_DTYPE_COUNT);
#undef JT_DTYPE_COUNT

inline constexpr size_t dtype_size(DType t) {
  switch (t) {
#define JT_DTYPE_SIZE(ctype, name) case DType::name: return sizeof(ctype);
    JT_FORALL_DTYPES(JT_DTYPE_SIZE)
#undef JT_DTYPE_SIZE
  }
  return 0;
}

inline constexpr bool valid_dtype(int code) { return code >= 0 && code < kNumDTypes; }

// Runs f(TypeTag<T>{}) for the C++ type of dtype t (PyTorch's AT_DISPATCH): one switch for every kernel.
template <typename T> struct TypeTag { using type = T; };
template <typename F>
inline decltype(auto) dispatch_dtype(DType t, F&& f) {
  switch (t) {
#define JT_DTYPE_CASE(ctype, name) case DType::name: return f(TypeTag<ctype>{});
    JT_FORALL_DTYPES(JT_DTYPE_CASE)
#undef JT_DTYPE_CASE
  }
  return f(TypeTag<bool>{});  // unreachable for a valid dtype; callers check codes first
}

// make(TypeTag<T>{}) for every dtype, indexed by dtype code: a kernel table's row, with the dtypes'
// order stated only in JT_FORALL_DTYPES.
template <typename R, typename Make>
constexpr std::array<R, kNumDTypes> per_dtype(Make make) {
  return {{
#define JT_PER_DTYPE(ctype, name) make(TypeTag<ctype>{}),
      JT_FORALL_DTYPES(JT_PER_DTYPE)
#undef JT_PER_DTYPE
  }};
}

// The DType of a C++ element type: DTypeOf<float>::value == DType::Float32.
template <typename T> struct DTypeOf;
#define JT_DTYPE_OF(ctype, name) template <> struct DTypeOf<ctype> { static constexpr DType value = DType::name; };
JT_FORALL_DTYPES(JT_DTYPE_OF)
#undef JT_DTYPE_OF

// float64 -> float16/bfloat16 must round once, not twice through float32: round to float32
// with round-to-odd so the second rounding is exact (the classic double-rounding fix).
inline JT_HOST_DEVICE float convert_double_to_float(double d) {
  float f = (float)d;
  if ((double)f != d && f != 0.0f && f == f && !std::isinf(f)) {
    uint32_t u = float_bits(f);
    if ((u & 1u) == 0) {  // make the float32 odd in the direction of d
      bool up = ((double)f < d) == (f > 0);
      u = up ? u + 1 : u - 1;
      f = bits_float(u);
    }
  }
  return f;
}

template <typename T> struct is_floating { static constexpr bool value = false; };
template <> struct is_floating<float> { static constexpr bool value = true; };
template <> struct is_floating<double> { static constexpr bool value = true; };
template <> struct is_floating<Half> { static constexpr bool value = true; };
template <> struct is_floating<BFloat16> { static constexpr bool value = true; };

// Note [Reading bool elements]
// Every kernel that reads an element's value reads it through load_elem. A bool element is read
// through its byte, as (byte != 0): a bool tensor viewed over other bytes (uint8.view(bool)) may
// hold any byte, which a C++ bool may not (reading one as bool is undefined: copies and
// conversions pass 190 on, max and `!` misbehave), and PyTorch reads every nonzero byte as True.
// Other types load as they are, so float paths are unchanged. (Kernels that only move bytes, such
// as same-dtype copies and gather, keep the byte, as PyTorch does.)
template <typename T>
inline JT_HOST_DEVICE T load_elem(const T* p) { return *p; }
template <>
inline JT_HOST_DEVICE bool load_elem<bool>(const bool* p) { return *reinterpret_cast<const unsigned char*>(p) != 0; }

// Value conversion with PyTorch's rules: anything -> bool is "!= 0"; floating -> integer goes
// through int64 first (as c10 does) so narrowing wraps instead of being undefined.
template <typename To, typename From>
inline JT_HOST_DEVICE To convert(From v) {
  if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (std::is_same<To, bool>::value) {
    if constexpr (is_floating<From>::value) return (double)v != 0.0;
    else return v != 0;
  } else if constexpr (std::is_same<To, Half>::value || std::is_same<To, BFloat16>::value) {
    if constexpr (std::is_same<From, double>::value) return To(convert_double_to_float(v));
    else return To((float)v);
  } else if constexpr (is_floating<To>::value) {
    if constexpr (std::is_same<From, Half>::value || std::is_same<From, BFloat16>::value)
      return (To)(float)v;
    else return (To)v;
  } else {  // integer destination
    if constexpr (is_floating<From>::value) {
      double d = (double)v;
      if (!(d == d)) return (To)0;                                   // NaN: defined, not UB
      if (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)  // out of int64: saturate
        return (To)(d < 0 ? INT64_MIN : INT64_MAX);
      return (To)(int64_t)d;
    } else {
      return (To)v;
    }
  }
}

// A host scalar (an exact int64 when integral, else a double's raw bits) as the bytes of one
// element of dtype t, rounding once: the one place a scalar operand or fill value becomes an
// element, for the CPU's plans and CUDA's alike.
inline int64_t element_bits(DType t, bool integral, int64_t bits) {
  int64_t slot = 0;
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    double d;
    std::memcpy(&d, &bits, 8);
    T v = integral ? convert<T, int64_t>(bits) : convert<T, double>(d);
    std::memcpy(&slot, &v, sizeof(T));
  });
  return slot;
}

}  // namespace jt
