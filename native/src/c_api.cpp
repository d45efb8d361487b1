// jt_* entry points: unpack the plain-C arguments and call into namespace jt.
#include <cstddef>
#include <cstring>
#include <new>

#include "jt/jt.h"
#include "kernels/elementwise.h"
#include "kernels/gemm.h"
#include "kernels/kernels.h"
#include "kernels/reduce.h"
#include "parallel.h"
#include "storage.h"

using namespace jt;

namespace {
StorageImpl* S(int64_t h) { return reinterpret_cast<StorageImpl*>(h); }
void* P(int64_t a) { return reinterpret_cast<void*>(a); }
Scalar scalar_from_bits(int integral, int64_t bits) {
  Scalar s{integral != 0, 0, 0.0};
  if (s.integral) {
    s.i = bits;
    s.d = (double)bits;
  } else {
    std::memcpy(&s.d, &bits, 8);
    // (int64_t) of NaN or of a double outside int64's range is undefined behaviour
    s.i = s.d > -9.3e18 && s.d < 9.2e18 ? (int64_t)s.d : 0;
  }
  return s;
}
// A scalar operand's value as the bytes of dtype t: the one place a host scalar becomes an
// element (float16/bfloat16 rounding included), shared by every elementwise plan.
int64_t scalar_element(DType t, int integral, int64_t bits) {
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
}  // namespace

// Kernels may allocate scratch (the only thing that throws): no exception may cross into the
// JVM, so it becomes a status for Java to raise.
template <typename F>
int guarded(F&& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return JT_OUT_OF_MEMORY;
  } catch (...) {
    return JT_INVALID;
  }
}

int64_t jt_storage_new(int64_t nbytes) { return reinterpret_cast<int64_t>(storage_new(nbytes)); }
void jt_storage_retain(int64_t s) { S(s)->retain(); }
void jt_storage_release(int64_t s) { storage_release(S(s)); }
int64_t jt_storage_refcount(int64_t s) { return S(s)->refcount.load(std::memory_order_relaxed); }
int64_t jt_storage_data_offset(void) { return (int64_t)offsetof(StorageImpl, data_ptr); }
int64_t jt_storage_data(int64_t s) { return reinterpret_cast<int64_t>(S(s)->data()); }
int64_t jt_storage_nbytes(int64_t s) { return S(s)->nbytes; }
int jt_storage_resize(int64_t s, int64_t nbytes) { return storage_resize(S(s), nbytes) ? JT_OK : JT_OUT_OF_MEMORY; }

void jt_cpu_empty_cache(void) { cpu_allocator().empty_cache(); }
int jt_cpu_stat_count(void) { return (int)DeviceStats::names().size(); }
const char* jt_cpu_stat_name(int i) { return DeviceStats::names().at((size_t)i).c_str(); }
void jt_cpu_memory_stats(int64_t* out) { cpu_allocator().stats().values(out); }
void jt_cpu_reset_peak_stats(void) { cpu_allocator().reset_peak_stats(); }
void jt_cpu_reset_accumulated_stats(void) { cpu_allocator().reset_accumulated_stats(); }
int64_t jt_cpu_snapshot(int64_t* out, int64_t cap) { return cpu_allocator().snapshot(out, cap); }
void jt_cpu_set_memory_limit(int64_t bytes) { cpu_allocator().set_memory_limit((size_t)(bytes < 0 ? 0 : bytes)); }
int64_t jt_cpu_memory_limit(void) { return (int64_t)cpu_allocator().memory_limit(); }
const char* jt_alloc_conf_error(void) { return cpu_allocator().conf_error().c_str(); }

void jt_set_num_threads(int n) { set_num_threads(n); }
int jt_get_num_threads(void) { return get_num_threads(); }

void jt_copy(const int64_t* plan) {
  const int ndim = (int)plan[0];
  CopyPlan p{ndim, P(plan[1]), (DType)plan[2], P(plan[3]), (DType)plan[4],
             plan + 5, plan + 5 + ndim, plan + 5 + 2 * ndim};
  copy_strided(p);
}

void jt_fill(const int64_t* plan) {
  const int ndim = (int)plan[0];
  fill_strided(ndim, P(plan[1]), (DType)plan[2], plan + 5, plan + 5 + ndim, scalar_from_bits((int)plan[3], plan[4]));
}

void jt_arange(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits) {
  arange(P(dst), (DType)dtype, n, scalar_from_bits(is_integral, start_bits), scalar_from_bits(is_integral, step_bits));
}

void jt_linspace(int64_t dst, int dtype, int64_t steps, double start, double end) {
  linspace(P(dst), (DType)dtype, steps, start, end);
}

double jt_load_f64(int64_t a, int t) { return load_f64(P(a), (DType)t); }
int64_t jt_load_i64(int64_t a, int t) { return load_i64(P(a), (DType)t); }
void jt_store_f64(int64_t a, int t, double v) { store_f64(P(a), (DType)t, v); }
void jt_store_i64(int64_t a, int t, int64_t v) { store_i64(P(a), (DType)t, v); }

void jt_read_bytes(int64_t src, void* dst, int64_t n) { if (n > 0) std::memcpy(dst, P(src), (size_t)n); }
void jt_write_bytes(int64_t dst, const void* src, int64_t n) { if (n > 0) std::memcpy(P(dst), src, (size_t)n); }
void jt_memcpy(int64_t dst, int64_t src, int64_t n) { parallel_memcpy(P(dst), P(src), n); }

int jt_index_gather(int64_t dst, int64_t src, int es, const int64_t* offsets, int64_t n, int64_t lo, int64_t hi) {
  return guarded([&] { return index_gather(P(dst), P(src), es, offsets, n, lo, hi) ? JT_OK : JT_INVALID; });
}
int jt_index_scatter(int64_t dst, int es, const int64_t* offsets, int64_t src, int64_t n, int64_t lo, int64_t hi) {
  return guarded([&] { return index_scatter(P(dst), es, offsets, P(src), n, lo, hi) ? JT_OK : JT_INVALID; });
}

int jt_ew_op_id(const char* name) { return elementwise_op_id(name); }
int jt_ew_op_info(int op, int dtype) { return elementwise_op_info(op, dtype); }
int jt_ew_op_count(void) { return elementwise_op_count(); }
const char* jt_ew_op_name(int op) { return elementwise_op_name(op); }
int jt_reduce_op_id(const char* name) { return reduce_op_id(name); }
int jt_reduce_out_dtype(int op, int dtype) { return reduce_out_dtype(op, dtype); }
int jt_scan_op_id(const char* name) { return scan_op_id(name); }
int jt_scan_out_dtype(int op, int dtype) { return scan_out_dtype(op, dtype); }

int jt_elementwise(const int64_t* plan) {
  EwPlan p;
  p.op = (int)plan[0];
  p.dtype = (DType)plan[1];
  const int nops = (int)plan[2];
  p.ndim = (int)plan[3];
  const int64_t* addr = plan + 4;
  p.sizes = addr + nops;
  const int64_t* strides = p.sizes + p.ndim;
  const int64_t* params = strides + nops * p.ndim;
  const int64_t* scalars = params + 8;  // per operand: value bits, then dtype code << 1 | integral
  int64_t slots[4] = {0, 0, 0, 0};
  static const int64_t kZeros[64] = {0};
  for (int k = 0; k < 4; ++k) {
    p.ptr[k] = nullptr;
    p.strides[k] = kZeros;
  }
  if (nops > 4) return JT_INVALID;
  for (int k = 0; k < nops; ++k) {
    const bool scalar = addr[k] == 0;
    if (scalar) {
      const int64_t desc = scalars[2 * k + 1];
      if ((desc >> 1) < 0 || (desc >> 1) >= kNumDTypes) return JT_INVALID;
      slots[k] = scalar_element((DType)(desc >> 1), (int)(desc & 1), scalars[2 * k]);
    }
    p.ptr[k] = scalar ? reinterpret_cast<char*>(slots + k) : reinterpret_cast<char*>(addr[k]);
    p.strides[k] = scalar ? kZeros : strides + k * p.ndim;
  }
  for (int k = 0; k < 4; ++k) {
    std::memcpy(&p.params.f[k], params + k, 8);
    p.params.i[k] = params[4 + k];
  }
  return guarded([&] { return elementwise_run(p); });
}

int jt_reduce(const int64_t* plan) {
  RedPlan p;
  p.op = (int)plan[0];
  p.dtype = (DType)plan[1];
  p.ndim = (int)plan[2];
  p.out = P(plan[3]);
  p.in = P(plan[4]);
  p.values = P(plan[5]);
  std::memcpy(&p.scale, plan + 6, 8);
  p.sizes = plan + 7;
  p.out_strides = p.sizes + p.ndim;
  p.in_strides = p.out_strides + p.ndim;
  p.reduced = p.in_strides + p.ndim;
  return guarded([&] { return reduce_run(p); });
}

void jt_blas_register(int64_t sgemm, int64_t dgemm, int64_t set_threads) { gemm_register(P(sgemm), P(dgemm), P(set_threads)); }
int jt_blas_available(void) { return gemm_has_blas() ? 1 : 0; }

int jt_gemm(const int64_t* plan) {
  GemmPlan p;
  p.dtype = (DType)plan[0];
  p.m = plan[1], p.n = plan[2], p.k = plan[3];
  p.a = P(plan[4]), p.b = P(plan[5]), p.c = P(plan[6]);
  p.a_row = plan[7], p.a_col = plan[8], p.b_row = plan[9], p.b_col = plan[10], p.c_row = plan[11], p.c_col = plan[12];
  std::memcpy(&p.alpha, plan + 13, 8);
  std::memcpy(&p.beta, plan + 14, 8);
  p.batch_ndim = (int)plan[15];
  p.batch_sizes = plan + 16;
  p.a_batch = p.batch_sizes + p.batch_ndim;
  p.b_batch = p.a_batch + p.batch_ndim;
  p.c_batch = p.b_batch + p.batch_ndim;
  return guarded([&] { return gemm_run(p); });
}

int jt_index_accumulate(int64_t dst, int dtype, const int64_t* offsets, int64_t src, int64_t n, int64_t lo, int64_t hi) {
  return guarded([&] { return index_accumulate(P(dst), (DType)dtype, offsets, P(src), n, lo, hi) ? JT_OK : JT_INVALID; });
}

int jt_scan(const int64_t* plan) {
  ScanPlan p;
  p.prod = plan[0] != 0;
  p.dtype = (DType)plan[1];
  p.ndim = (int)plan[2];
  p.dim = (int)plan[3];
  p.out = P(plan[4]);
  p.in = P(plan[5]);
  p.sizes = plan + 6;
  p.out_strides = p.sizes + p.ndim;
  p.in_strides = p.out_strides + p.ndim;
  return guarded([&] { return scan_run(p); });
}
