// The vectors of the capability a vectorized/ file is compiled for (GCC vector extensions, as wide
// as the capability's registers, or of a given lane count) and their unaligned loads and stores. Include it after
// capability_namespace.h: it opens jt::<capability> itself, so each capability's copy stays its own.
#pragma once
#include <cstring>

#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN
namespace {

#if defined(JT_CPU_CAP_avx512)
constexpr int kVectorBytes = 64;
#elif defined(JT_CPU_CAP_avx2)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

// N elements of E as one GCC vector (any N a power of two; wider than the registers, GCC splits it).
template <typename E, int N>
struct Lanes {
  typedef E type __attribute__((vector_size(N * sizeof(E))));
};

// The capability's own width.
template <typename T>
struct Vec {
  static constexpr int lanes = kVectorBytes / (int)sizeof(T);
  using type = typename Lanes<T, lanes>::type;
};

template <typename T>
inline typename Vec<T>::type load(const T* p) {
  typename Vec<T>::type v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
inline void store(T* p, typename Vec<T>::type v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace
JT_CPU_CAP_END
