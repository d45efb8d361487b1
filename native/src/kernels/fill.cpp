// fill_, arange, linspace and single-element access.
#include "jt/dtype.h"
#include "jt/sequences.h"
#include "kernels/kernels.h"
#include "kernels/strided.h"

namespace jt {
namespace {

template <typename T>
T scalar_as(Scalar v) {
  return v.integral ? convert<T, int64_t>(v.i) : convert<T, double>(v.d);
}

template <typename T>
void fill_typed(const StridedIter<1>& it, Scalar v) {
  const T value = scalar_as<T>(v);
  it.run([value](char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == (int64_t)sizeof(T)) {
      T* d = reinterpret_cast<T*>(p[0]);
      for (int64_t i = 0; i < n; ++i) d[i] = value;
    } else {
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = value;
    }
  });
}

template <typename T>
void arange_typed(T* dst, int64_t n, Scalar start, Scalar step) {
  const bool integral = start.integral && step.integral;
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = arange_value<T>(i, integral, start.i, step.i, start.d, step.d);
  });
}

template <typename T>
void linspace_typed(T* dst, int64_t steps, double start, double end) {
  const double step = linspace_step(steps, start, end);
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = linspace_value<T>(i, steps, start, end, step);
  });
}

}  // namespace

void fill_strided(int ndim, void* dst, DType dtype, const int64_t* sizes, const int64_t* strides, Scalar v) {
  StridedIter<1> it;
  it.ndim = ndim;
  it.base[0] = static_cast<char*>(dst);
  for (int d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) return;
    it.size[d] = sizes[d];
    it.stride[0][d] = strides[d] * (int64_t)dtype_size(dtype);
  }
  it.coalesce();
  dispatch_dtype(dtype, [&](auto t) { fill_typed<typename decltype(t)::type>(it, v); });
}

void arange(void* dst, DType dtype, int64_t n, Scalar start, Scalar step) {
  dispatch_dtype(dtype, [&](auto t) { arange_typed(static_cast<typename decltype(t)::type*>(dst), n, start, step); });
}

void linspace(void* dst, DType dtype, int64_t steps, double start, double end) {
  dispatch_dtype(dtype, [&](auto t) { linspace_typed(static_cast<typename decltype(t)::type*>(dst), steps, start, end); });
}

double load_f64(const void* p, DType t) {
  return dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return convert<double, T>(load_elem(static_cast<const T*>(p)));
  });
}

int64_t load_i64(const void* p, DType t) {
  return dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return convert<int64_t, T>(load_elem(static_cast<const T*>(p)));
  });
}

void store_f64(void* p, DType t, double v) {
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(p) = convert<T, double>(v);
  });
}

void store_i64(void* p, DType t, int64_t v) {
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(p) = convert<T, int64_t>(v);
  });
}

}  // namespace jt
