// The i-th value of arange and linspace, shared by the CPU's and the CUDA kernels so that both
// write the same bits. On the device the multiply and the add are rounded separately (nvcc would
// otherwise contract them into one FMA), as the host's baseline x86-64 code does.
#pragma once
#include <cstdint>

#include "jt/dtype.h"

namespace jt {

JT_HOST_DEVICE inline double mul_add_rounded(double a, double b, double c) {  // a * b + c, two roundings
#if defined(__CUDA_ARCH__)
  return __dadd_rn(__dmul_rn(a, b), c);
#else
  return a * b + c;
#endif
}

// arange: start + i * step, in int64 when both are integers, else in double.
template <typename T>
JT_HOST_DEVICE inline T arange_value(int64_t i, bool integral, int64_t start_i, int64_t step_i, double start_d,
                                     double step_d) {
  return integral ? convert<T, int64_t>(start_i + i * step_i) : convert<T, double>(mul_add_rounded(step_d, (double)i, start_d));
}

// linspace's step: (end - start) / (steps - 1), 0 for a single point.
JT_HOST_DEVICE inline double linspace_step(int64_t steps, double start, double end) {
  return steps > 1 ? (end - start) / (double)(steps - 1) : 0.0;
}

// linspace: computed from both ends, as PyTorch does, so that the last point is exactly end.
template <typename T>
JT_HOST_DEVICE inline T linspace_value(int64_t i, int64_t steps, double start, double end, double step) {
  return convert<T, double>(i < steps / 2 ? mul_add_rounded(step, (double)i, start)
                                          : mul_add_rounded(-step, (double)(steps - i - 1), end));
}

}  // namespace jt
