// The CPU kernels behind the C API, on plans already validated by Java.
#pragma once
#include <cstddef>
#include <cstdint>

#include "jt/dtype.h"
#include "jt/plans.h"

namespace jt {

struct CopyPlan {
  int ndim;
  void* dst;
  DType dst_dtype;
  const void* src;
  DType src_dtype;
  const int64_t* sizes;
  const int64_t* dst_strides;  // elements
  const int64_t* src_strides;  // elements; 0 where the source is broadcast
};

// A value for fill: an exact int64, or a double.
struct Scalar {
  bool integral;
  int64_t i;
  double d;
};

void copy_strided(const CopyPlan& plan);
void fill_strided(int ndim, void* dst, DType dtype, const int64_t* sizes, const int64_t* strides, Scalar v);
void arange(void* dst, DType dtype, int64_t n, Scalar start, Scalar step);
void linspace(void* dst, DType dtype, int64_t steps, double start, double end);
void parallel_memcpy(void* dst, const void* src, int64_t nbytes);
// dst[r * d_row + c] = src[c * s_col + r] for r < rows, c < cols, 4-byte elements (strides in
// elements): the register-blocked transpose of the copy kernel, for packing tiles.
void transpose_tile_4byte(void* dst, const void* src, int64_t rows, int64_t cols, int64_t d_row, int64_t s_col);

// The scans along dim, by their id (the plan's op): cumsum and cumprod (int64 out for integer
// input), cummax and cummin (in's dtype, with int64 indices), logcumsumexp (floating types only).
enum ScanOp { kCumsum, kCumprod, kCummax, kCummin, kLogcumsumexp, kScanOps };
inline constexpr const char* kScanNames[kScanOps] = {"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"};
int scan_op_id(const char* name);        // -1 when unknown
int scan_out_dtype(int op, int dtype);  // the dtype the kernel writes, -1 when it has none
// A kernel along one dim (scan, softmax): out over in's shape, strides in elements.
struct AlongDimPlan {
  DType dtype;  // in's
  int ndim, dim;
  void* out;
  const void* in;
  const int64_t* sizes;
  const int64_t* out_strides;
  const int64_t* in_strides;
};
struct ScanPlan : AlongDimPlan {
  int op;  // a ScanOp
  int64_t* indices;  // cummax/cummin's positions, over in's shape
  const int64_t* indices_strides;
};
int scan_run(const ScanPlan& p);
int scan_ordered_run(const ScanPlan& p);  // cummax, cummin, logcumsumexp (scan_ordered.cpp)

// sort along dim: values (in's dtype) and int64 indices, both over in's shape.
struct SortPlan {
  DType dtype;
  int ndim, dim;
  bool descending;
  void* values;
  void* indices;
  const void* in;
  const int64_t* sizes;
  const int64_t* values_strides;
  const int64_t* indices_strides;
  const int64_t* in_strides;
};
int sort_run(const SortPlan& p);
// kthvalue's or mode's position per line (the select plan, checked by jt_select).
int select_run(const select_plan& p);
// searchsorted's positions (the search plan, checked by jt_search).
int search_run(const search_plan& p);

// softmax (log false) or log_softmax along dim of a floating dtype; out has in's shape and dtype.
struct SoftmaxPlan : AlongDimPlan {
  bool log;
};
int softmax_run(const SoftmaxPlan& p);  // JT_NO_KERNEL for a non-floating dtype

// Sliding windows (plans.h's windows and max_pool plans, read as they are; vectorized/windows.cpp).
int windows_run(const windows_plan& r);    // JT_NO_KERNEL for a non-floating dtype
int max_pool_run(const max_pool_plan& r);  // JT_NO_KERNEL for bool
// Normalization (plans.h's norm plan, jt/norm.h; vectorized/norm.cpp).
int norm_run(const norm_plan& r);  // JT_NO_KERNEL for a non-floating dtype

// Fused scaled dot-product attention (plans.h's attention plan; vectorized/attention.cpp).
int attention_run(const attention_plan& r);  // JT_NO_KERNEL for a dtype other than float32/float64

// Direct stride-1 convolution (plans.h's conv plan; vectorized/convolution.cpp).
int conv_run(const conv_plan& r);  // JT_NO_KERNEL for a dtype other than float32/float64

// grid_sample's forward or backward (plans.h's grid_sample plan; grid_sample.cpp, 3-D in grid_sample_3d.cpp).
int grid_sample_run(const grid_sample_plan& r);  // JT_NO_KERNEL for a dtype other than float32/float64
int grid_sample_3d_run(const grid_sample_plan& r);

double load_f64(const void* p, DType t);
int64_t load_i64(const void* p, DType t);
void store_f64(void* p, DType t, double v);
void store_i64(void* p, DType t, int64_t v);

}  // namespace jt
