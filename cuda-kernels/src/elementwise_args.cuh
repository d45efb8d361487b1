// An elementwise plan made ready for a kernel: per operand its device pointer, or the value every
// element reads (a host scalar, or a tensor broadcast from one element); the iteration's geometry;
// and the path the kernel takes (16-byte vector loads when every walked operand is dense and
// aligned, a flat loop when dense, else strides).
#pragma once
#include <cstdint>

#include "jt/functors.h"
#include "jt/plans.h"
#include "geometry.cuh"

namespace jt {
namespace cuda {

enum EwMode : int { kStrided = 0, kDense = 1, kVector = 2 };

template <int N>  // operands, 0 the output
struct EwArgs {
  char* ptr[N];
  int64_t slot[N];  // a host scalar's element bits (ptr null)
  bool once[N];     // one value for every element: a host scalar or a tensor of stride 0
  Geometry<N> g;
  int64_t n;
  Params params;
  int mode;
};

// The path for a's operands as they stand (ptr, once, g): vec elements per vector load, 0 for none.
template <int N>
void choose_mode(EwArgs<N>& a, const int64_t* elem, int vec) {
  bool dense = true, aligned = vec > 0;
  for (int k = 0; k < N; ++k) {
    if (a.once[k]) continue;
    dense &= a.g.dense(k, elem[k]);
    aligned = aligned && reinterpret_cast<uintptr_t>(a.ptr[k]) % (uintptr_t)(vec * elem[k]) == 0;  // vec 0: never divides
  }
  a.mode = dense ? (aligned ? kVector : kDense) : kStrided;
}

// Fills a from the plan r: elem[k] is operand k's element size, vec the elements per vector
// (0: no vector path). slots hold host scalars' element bits. False when the geometry has too many dims.
template <int N>
bool prepare(const elementwise_plan& r, const int64_t* slots, const int64_t* elem, int vec, EwArgs<N>& a) {
  const int64_t* strides[N];
  for (int k = 0; k < N; ++k) strides[k] = r.strides + k * r.ndim;
  if (!a.g.build((int)r.ndim, r.sizes, strides, elem)) return false;
  a.n = 1;
  for (int d = 0; d < r.ndim; ++d) a.n *= r.sizes[d];
  for (int k = 0; k < 4; ++k) {
    std::memcpy(&a.params.f[k], r.params + k, 8);
    a.params.i[k] = r.params[4 + k];
  }
  for (int k = 0; k < N; ++k) {
    a.ptr[k] = reinterpret_cast<char*>(r.addresses[k]);
    a.slot[k] = slots[k];
    bool zero = true;
    for (int d = 0; d < a.g.ndim; ++d) zero &= a.g.stride[k][d] == 0;
    a.once[k] = k > 0 && (a.ptr[k] == nullptr || zero);
  }
  choose_mode(a, elem, vec);
  return true;
}

}  // namespace cuda
}  // namespace jt
