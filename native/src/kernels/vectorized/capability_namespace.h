// Opens the namespace of the capability this file is being compiled for (JT_CPU_CAP, set by
// cmake/CMakeLists.txt: baseline, avx2 or avx512), so the same source gives three sets of kernels
// that link side by side. Each vectorized file includes this first and closes with
// JT_CPU_CAP_END.
#pragma once
#ifndef JT_CPU_CAP
#error "kernels/vectorized/ is compiled once per capability: JT_CPU_CAP must name it"
#endif
#define JT_CPU_CAP_BEGIN namespace jt { namespace JT_CPU_CAP {
#define JT_CPU_CAP_END } }

#include "jt/dtype.h"

// cmake also defines JT_CPU_CAP_<name>.
#ifdef JT_CPU_CAP_baseline
#define JT_CPU_CAP_IS_BASELINE 1
#else
#define JT_CPU_CAP_IS_BASELINE 0
#endif

namespace jt {
// Which dtypes' kernels a capability holds: the baseline every dtype, AVX2 and AVX-512 the
// floating ones only. Integer and bool kernels gained little from wider vectors and their copies
// doubled the build's time; the AVX capabilities hand those dtypes to the baseline's kernels (the
// same bits, as every capability computes).
template <typename T>
constexpr bool compiled_in_this_capability = JT_CPU_CAP_IS_BASELINE || is_floating<T>::value;
}  // namespace jt
