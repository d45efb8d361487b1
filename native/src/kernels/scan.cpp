// cumsum/cumprod along one dim: each line along the dim is scanned in order, lines in parallel.
// Integers and bool accumulate (and return) int64, float16/bfloat16 accumulate in float, float in
// double (PyTorch's CPU acc_type); integer sums and products wrap as two's complement.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "jt/functors.h"
#include "jt/scan_types.h"
#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

// acc + v or acc * v; int64 through uint64, so that an overflow wraps as PyTorch's does (signed
// overflow is undefined behaviour in C++).
template <typename A, bool Prod>
inline A step(A acc, A v) {
  if constexpr (std::is_integral<A>::value) {
    using U = typename std::make_unsigned<A>::type;
    return (A)(Prod ? (U)acc * (U)v : (U)acc + (U)v);
  } else {
    return Prod ? acc * v : acc + v;
  }
}

template <typename T, bool Prod>
void scan_typed(const ScanPlan& p) {
  using A = typename ScanTypes<T>::CpuA;
  using O = typename ScanTypes<T>::O;
  const T* in = static_cast<const T*>(p.in);
  O* out = static_cast<O*>(p.out);
  int64_t lines = 1;
  for (int d = 0; d < p.ndim; ++d)
    if (d != p.dim) lines *= p.sizes[d];
  const int64_t len = p.sizes[p.dim], is = p.in_strides[p.dim], os = p.out_strides[p.dim];
  parallel_for(0, lines, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len, 1)), [&](int64_t b, int64_t e) {
    for (int64_t l = b; l < e; ++l) {
      int64_t rem = l, io = 0, oo = 0;
      for (int d = p.ndim - 1; d >= 0; --d) {
        if (d == p.dim) continue;
        int64_t x = rem % p.sizes[d];
        rem /= p.sizes[d];
        io += x * p.in_strides[d];
        oo += x * p.out_strides[d];
      }
      A acc = Prod ? A(1) : A(0);
      for (int64_t i = 0; i < len; ++i) {
        A v = (A)load_elem(in + io + i * is);
        acc = step<A, Prod>(acc, v);
        out[oo + i * os] = (O)acc;
      }
    }
  });
}

}  // namespace

int scan_op_id(const char* name) {
  for (int i = 0; i < kScanOps; ++i)
    if (std::strcmp(kScanNames[i], name) == 0) return i;
  return -1;
}

int scan_out_dtype(int op, int dtype) {
  if (op < 0 || op >= kScanOps || !valid_dtype(dtype)) return -1;
  if (op == kCummax || op == kCummin) return dtype;
  if (op == kLogcumsumexp)
    return dispatch_dtype((DType)dtype, [](auto t) { return is_floating<typename decltype(t)::type>::value; }) ? dtype : -1;
  return dispatch_dtype((DType)dtype, [](auto t) {
    return (int)DTypeOf<typename ScanTypes<typename decltype(t)::type>::O>::value;
  });
}

int scan_run(const ScanPlan& p) {
  if (!valid_dtype((int)p.dtype)) return -1;
  dispatch_dtype(p.dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    if (p.op == kCumprod) scan_typed<T, true>(p);
    else scan_typed<T, false>(p);
  });
  return 0;
}

}  // namespace jt
