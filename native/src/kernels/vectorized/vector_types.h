// The vectors of the capability a vectorized/ file is compiled for (GCC vector extensions, as wide
// as the capability's registers) and their unaligned loads and stores. Include it after
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

template <typename T>
struct Vec {
  typedef T type __attribute__((vector_size(kVectorBytes)));
  static constexpr int lanes = kVectorBytes / (int)sizeof(T);
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
