// What cumsum/cumprod of T accumulate in and write, for the CPU's and the CUDA scan alike (and
// scan_out_dtype, which Java checks): integers and bool in int64, float16/bfloat16 in float.
#pragma once
#include <type_traits>

#include "jt/functors.h"

namespace jt {

template <typename T>
struct ScanTypes {
  using A = typename std::conditional<std::is_integral<T>::value, int64_t, opmath_t<T>>::type;
  using O = typename std::conditional<std::is_integral<T>::value, int64_t, T>::type;
  // The CPU's accumulator, PyTorch's at::acc_type<T, /*is_cuda=*/false>: float accumulates in double
  // there (each output still rounded to float), not in float as on CUDA.
  using CpuA = typename std::conditional<std::is_same<T, float>::value, double, A>::type;
};

}  // namespace jt
