// jt_* entry points: unpack the plain-C arguments and call into namespace jt.
#include <cstring>

#include "jt/jt.h"
#include "kernels/kernels.h"
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
    s.i = (int64_t)s.d;
  }
  return s;
}
}  // namespace

int64_t jt_storage_new(int64_t nbytes) { return reinterpret_cast<int64_t>(storage_new(nbytes)); }
void jt_storage_retain(int64_t s) { S(s)->retain(); }
void jt_storage_release(int64_t s) { storage_release(S(s)); }
int64_t jt_storage_refcount(int64_t s) { return S(s)->refcount.load(std::memory_order_relaxed); }
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

void jt_index_gather(int64_t dst, int64_t src, int es, const int64_t* offsets, int64_t n) {
  index_gather(P(dst), P(src), es, offsets, n);
}
void jt_index_scatter(int64_t dst, int es, const int64_t* offsets, int64_t src, int64_t n) {
  index_scatter(P(dst), es, offsets, P(src), n);
}
