// jt_* entry points: unpack the plain-C arguments and call into namespace jt.
#include <cstddef>
#include <algorithm>
#include <cstring>
#include <new>

#include "jt/jt.h"
#include "jt/no_throw.h"
#include "jt/plans.h"
#include "jt/search.h"
#include "jt/storage.h"
#include "allocator/foreign_allocator.h"
#include "allocator/stats.h"
#include "kernels/cpu_capability.h"
#include "kernels/elementwise.h"
#include "kernels/gemm.h"
#include "kernels/index_along.h"
#include "kernels/index_advanced.h"
#include "kernels/nonzero.h"
#include "kernels/random.h"
#include "kernels/kernels.h"
#include "kernels/linalg.h"
#include "kernels/reduce.h"
#include "parallel.h"

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
}  // namespace

// A kernel's status through guarded_status (jt/no_throw.h), with the kernels' -1 ("no kernel for
// this dtype") as JT_NO_KERNEL.
template <typename F>
int guarded(F&& run) {
  return guarded_status([&] {
    int status = run();
    return status == -1 ? JT_NO_KERNEL : status;
  });
}

const char* jt_device_type_name(int device) { return device_type_name(device); }
int jt_device_has_allocator(int device) { return device_allocator(device) ? 1 : 0; }

int64_t jt_storage_new(int device, int64_t nbytes) {
  return answer_or<int64_t>(0, [&] { return reinterpret_cast<int64_t>(storage_new(device, nbytes)); });
}
int64_t jt_storage_wrap(int64_t address, int64_t nbytes) {
  return reinterpret_cast<int64_t>(storage_wrap(reinterpret_cast<void*>(address), nbytes));
}
void jt_wrapped_stats(int64_t* out) { foreign_stats(out); }
void jt_wrapped_reset_peak(void) { foreign_reset_peak(); }
void jt_wrapped_reset_accumulated(void) { foreign_reset_accumulated(); }
void jt_storage_retain(int64_t s) { S(s)->retain(); }
void jt_storage_release(int64_t s) {
  dropping_exceptions([&] { storage_release(S(s)); });  // a device's free may list events (CUDA)
}
int64_t jt_storage_refcount(int64_t s) { return S(s)->refcount.load(std::memory_order_relaxed); }
int64_t jt_storage_data_offset(void) { return (int64_t)offsetof(StorageImpl, data_ptr); }
int64_t jt_storage_data(int64_t s) { return reinterpret_cast<int64_t>(S(s)->data()); }
int64_t jt_storage_nbytes(int64_t s) { return S(s)->nbytes; }
int jt_storage_device(int64_t s) { return S(s)->device; }
int jt_storage_resize(int64_t s, int64_t nbytes) {
  return answer_or<int>(JT_OUT_OF_MEMORY, [&] { return storage_resize(S(s), nbytes) ? JT_OK : JT_OUT_OF_MEMORY; });
}
int jt_storage_record_stream(int64_t s, uint64_t stream) {
  return guarded_status([&] {
    if (S(s)->ctx) S(s)->allocator->record_stream(S(s)->ctx, stream);
    return JT_OK;
  });
}

// A device without an allocator in this process has nothing to report, free or limit.
void jt_empty_cache(int device) {
  dropping_exceptions([&] {
    if (DeviceAllocator* a = device_allocator(device)) a->empty_cache();
  });
}
int jt_stat_count(void) { return (int)DeviceStats::names().size(); }
const char* jt_stat_name(int i) { return DeviceStats::names().at((size_t)i).c_str(); }
void jt_memory_stats(int device, int64_t* out) {
  if (DeviceAllocator* a = device_allocator(device)) a->stats(out);
  else std::fill(out, out + DeviceStats::names().size(), 0);
}
void jt_reset_peak_stats(int device) {
  if (DeviceAllocator* a = device_allocator(device)) a->reset_peak_stats();
}
void jt_reset_accumulated_stats(int device) {
  if (DeviceAllocator* a = device_allocator(device)) a->reset_accumulated_stats();
}
int64_t jt_snapshot(int device, int64_t* out, int64_t cap) {
  return answer_or<int64_t>(-1, [&]() -> int64_t {  // -1: the heap refused the list of words
    if (DeviceAllocator* a = device_allocator(device)) return a->snapshot(out, cap);
    if (cap >= 1) out[0] = 0;  // no segments
    return 1;
  });
}
void jt_set_memory_limit(int device, int64_t bytes) {
  if (DeviceAllocator* a = device_allocator(device)) a->set_memory_limit((size_t)(bytes < 0 ? 0 : bytes));
}
int64_t jt_memory_limit(int device) {
  DeviceAllocator* a = device_allocator(device);
  return a ? (int64_t)a->memory_limit() : 0;
}
const char* jt_alloc_conf_error(int device) {
  DeviceAllocator* a = device_allocator(device);
  return a ? a->conf_error().c_str() : "";
}
const char* jt_oom_message(int device) {
  DeviceAllocator* a = device_allocator(device);
  return a ? a->oom_message() : "";
}

int jt_set_num_threads(int n) { return n < 1 ? JT_INVALID : set_num_threads(n) ? JT_OK : JT_OUT_OF_MEMORY; }
int jt_get_num_threads(void) { return get_num_threads(); }

int jt_cpu_capability(void) { return (int)cpu_capability(); }
int jt_cpu_capability_supported(void) { return (int)cpu_capability_supported(); }
const char* jt_cpu_capability_name(int c) {
  return c >= 0 && c < kNumCpuCapabilities ? cpu_capability_name((CpuCapability)c) : "";
}
int jt_set_cpu_capability(int c) { return set_cpu_capability((CpuCapability)c) ? 0 : -1; }

int jt_copy(const int64_t* words) {
  copy_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dst_dtype) || !valid_dtype((int)r.src_dtype)) return JT_INVALID;
  CopyPlan p{(int)r.ndim, P(r.dst), (DType)r.dst_dtype, P(r.src), (DType)r.src_dtype, r.sizes, r.dst_strides, r.src_strides};
  return guarded([&] { copy_strided(p); return JT_OK; });
}

int jt_fill(const int64_t* words) {
  fill_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype)) return JT_INVALID;
  return guarded([&] {
    fill_strided((int)r.ndim, P(r.dst), (DType)r.dtype, r.sizes, r.strides, scalar_from_bits((int)r.integral, r.value));
    return JT_OK;
  });
}

void jt_arange(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits) {
  arange(P(dst), (DType)dtype, n, scalar_from_bits(is_integral, start_bits), scalar_from_bits(is_integral, step_bits));
}

void jt_linspace(int64_t dst, int dtype, int64_t steps, double start, double end) {
  linspace(P(dst), (DType)dtype, steps, start, end);
}

int jt_lu_factor(int64_t a, int dtype, int64_t batch, int64_t n, int64_t pivots, int64_t info) {
  return guarded([&] { return lu_factor((DType)dtype, P(a), batch, n, static_cast<int32_t*>(P(pivots)), static_cast<int32_t*>(P(info))); });
}
int jt_lu_solve(int64_t lu, int64_t pivots, int dtype, int64_t batch, int64_t n, int64_t k, int64_t b) {
  return guarded([&] { return lu_solve((DType)dtype, P(lu), static_cast<const int32_t*>(P(pivots)), batch, n, k, P(b)); });
}
int jt_cholesky(int64_t a, int dtype, int64_t batch, int64_t n, int64_t info) {
  return guarded([&] { return cholesky((DType)dtype, P(a), batch, n, static_cast<int32_t*>(P(info))); });
}

double jt_load_f64(int64_t a, int t) { return load_f64(P(a), (DType)t); }
int64_t jt_load_i64(int64_t a, int t) { return load_i64(P(a), (DType)t); }
void jt_store_f64(int64_t a, int t, double v) { store_f64(P(a), (DType)t, v); }
void jt_store_i64(int64_t a, int t, int64_t v) { store_i64(P(a), (DType)t, v); }

void jt_read_bytes(int64_t src, void* dst, int64_t n) { if (n > 0) parallel_memcpy(dst, P(src), n); }
void jt_write_bytes(int64_t dst, const void* src, int64_t n) { if (n > 0) parallel_memcpy(P(dst), src, n); }
void jt_memcpy(int64_t dst, int64_t src, int64_t n) { parallel_memcpy(P(dst), P(src), n); }


// AlongMode's names in its order: the one list of the modes (Java asks for each id by name).
static const char* const kAlongModes[] = {"gather", "scatter", "accumulate", "prod", "amax", "amin"};
constexpr int kNumAlongModes = (int)(sizeof(kAlongModes) / sizeof(kAlongModes[0]));

int jt_index_along(const int64_t* words, int64_t* bad) {
  index_along_plan r(words);
  if (!r.current() || r.mode < 0 || r.mode >= kNumAlongModes || r.dtype < 0 || r.dtype >= kNumDTypes) return JT_INVALID;
  AlongPlan p{(AlongMode)r.mode, (DType)r.dtype, (DType)r.index_dtype, (int)r.ndim, (int)r.dim, r.dim_size,
              reinterpret_cast<char*>(r.self), reinterpret_cast<const char*>(r.index), reinterpret_cast<char*>(r.other),
              r.shape, r.self_strides, r.index_strides, r.other_strides};
  return guarded([&] {
    int status = index_along(p, bad);
    return status == 1 ? (int)JT_INDEX_OUT_OF_RANGE : status;
  });
}

int jt_index_along_mode(const char* name) {
  for (int i = 0; i < kNumAlongModes; ++i)
    if (std::strcmp(name, kAlongModes[i]) == 0) return i;
  return -1;
}

int jt_index_advanced(const int64_t* words, int64_t* bad) {
  index_advanced_plan r(words);
  if (!r.current() || r.dtype < 0 || r.dtype >= kNumDTypes || r.nindices < 1 || r.nindices > kMaxAdvancedIndices) return JT_INVALID;
  AdvancedPlan p;
  p.put = r.put != 0;
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.shape = r.shape;
  p.self = reinterpret_cast<char*>(r.self);
  p.self_strides = r.self_strides;
  p.other = reinterpret_cast<char*>(r.other);
  p.other_strides = r.other_strides;
  p.nindices = (int)r.nindices;
  for (int j = 0; j < p.nindices; ++j) {
    p.indices[j] = {reinterpret_cast<const char*>(r.index_data[j]), (DType)r.index_dtypes[j], r.index_sizes[j],
                    r.index_self_strides[j], r.index_strides + j * r.ndim};
  }
  return guarded([&] {
    int status = index_advanced(p, bad);
    return status == 1 ? (int)JT_INDEX_OUT_OF_RANGE : status;
  });
}

int jt_nonzero(const int64_t* words, int64_t* found) {
  NonzeroArgs a;
  if (!prepare_nonzero(nonzero_plan(words), kGrainSize, kNonzeroMaxChunks, a)) return JT_INVALID;
  return guarded([&] {
    *found = nonzero_run(a);
    return JT_OK;
  });
}

int jt_random(const int64_t* words, double* bad) {
  random_plan r(words);
  if (!r.current() || r.dtype < 0 || r.dtype >= kNumDTypes) return JT_INVALID;
  RandomPlan p;
  p.draw = random_draw(r);
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.dst = reinterpret_cast<char*>(r.dst);
  p.p = reinterpret_cast<const char*>(r.p);
  p.sizes = r.sizes;
  p.dst_strides = r.dst_strides;
  p.p_strides = r.p_strides;
  return guarded([&] {
    int status = random_run(p, bad);
    return status == 1 ? (int)JT_VALUE_OUT_OF_RANGE : status;
  });
}
int jt_random_kind(const char* name) { return random_kind_id(name); }
void jt_philox_block(int64_t key, int64_t counter, int32_t* out) {
  uint32_t w[4];
  philox_block((uint64_t)key, (uint64_t)counter, w);
  std::memcpy(out, w, sizeof w);
}

int jt_ew_op_id(const char* name) { return elementwise_op_id(name); }
int jt_ew_op_info(int op, int dtype) { return elementwise_op_info(op, dtype); }
int jt_ew_op_count(void) { return elementwise_op_count(); }
const char* jt_ew_op_name(int op) { return elementwise_op_name(op); }
int jt_reduce_op_id(const char* name) { return reduce_op_id(name); }
int jt_reduce_out_dtype(int op, int dtype) { return reduce_out_dtype(op, dtype); }
int jt_scan_op_id(const char* name) { return scan_op_id(name); }
int jt_scan_out_dtype(int op, int dtype) { return scan_out_dtype(op, dtype); }

int jt_elementwise(const int64_t* words) {
  elementwise_plan r(words);
  if (!r.current() || r.nops < 1 || r.nops > 4) return JT_INVALID;
  const int info = elementwise_op_info((int)r.op, (int)r.dtype);
  if (info == 0) return JT_NO_KERNEL;
  if (r.out_dtype != ((info & 16) ? (int64_t)DType::Bool : r.dtype)) return JT_INVALID;  // the width it writes
  EwPlan p;
  p.op = (int)r.op;
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.sizes = r.sizes;
  int64_t slots[4] = {0, 0, 0, 0};
  static const int64_t kZeros[64] = {0};
  for (int k = 0; k < 4; ++k) {
    p.ptr[k] = nullptr;
    p.strides[k] = kZeros;
  }
  for (int k = 0; k < r.nops; ++k) {
    const bool scalar = r.addresses[k] == 0;
    if (scalar) {
      const int64_t desc = r.scalars[2 * k + 1];
      if ((desc >> 1) < 0 || (desc >> 1) >= kNumDTypes) return JT_INVALID;
      slots[k] = element_bits((DType)(desc >> 1), (int)(desc & 1), r.scalars[2 * k]);
      // a float32 scalar of a float16/bfloat16 op: kept in the op's math type (EwPlan::opmath_scalars)
      if ((DType)(desc >> 1) == DType::Float32 && ((DType)r.dtype == DType::Float16 || (DType)r.dtype == DType::BFloat16)) {
        p.opmath_scalars |= 1u << k;
      }
    }
    p.ptr[k] = scalar ? reinterpret_cast<char*>(slots + k) : reinterpret_cast<char*>(r.addresses[k]);
    p.strides[k] = scalar ? kZeros : r.strides + k * p.ndim;
  }
  for (int k = 0; k < 4; ++k) {
    std::memcpy(&p.params.f[k], r.params + k, 8);
    p.params.i[k] = r.params[4 + k];
  }
  return guarded([&] { return elementwise_run(p); });
}

int jt_reduce(const int64_t* words) {
  reduce_plan r(words);
  if (!r.current()) return JT_INVALID;
  const int out = reduce_out_dtype((int)r.op, (int)r.dtype);
  if (out < 0) return JT_NO_KERNEL;
  if (r.out_dtype != out) return JT_INVALID;
  RedPlan p;
  p.op = (int)r.op;
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.out = P(r.out);
  p.in = P(r.in);
  p.values = P(r.values);
  std::memcpy(&p.divisor, &r.divisor, 8);
  p.sizes = r.sizes;
  p.out_strides = r.out_strides;
  p.in_strides = r.in_strides;
  p.reduced = r.reduced;
  return guarded([&] { return reduce_run(p); });
}

void jt_blas_register(int64_t sgemm, int64_t dgemm, int64_t set_threads) { gemm_register(P(sgemm), P(dgemm), P(set_threads)); }
int jt_blas_available(void) { return gemm_has_blas() ? 1 : 0; }

int jt_gemm(const int64_t* words) {
  gemm_plan r(words);
  if (!r.current() || r.out_dtype != r.dtype) return JT_INVALID;
  GemmPlan p;
  p.dtype = (DType)r.dtype;
  p.m = r.m, p.n = r.n, p.k = r.k;
  p.a = P(r.a), p.b = P(r.b), p.c = P(r.c);
  p.a_row = r.a_row, p.a_col = r.a_col, p.b_row = r.b_row, p.b_col = r.b_col, p.c_row = r.c_row, p.c_col = r.c_col;
  std::memcpy(&p.alpha, &r.alpha, 8);
  std::memcpy(&p.beta, &r.beta, 8);
  p.batch_ndim = (int)r.batch_ndim;
  p.batch_sizes = r.batch_sizes;
  p.a_batch = r.a_batch;
  p.b_batch = r.b_batch;
  p.c_batch = r.c_batch;
  return guarded([&] { return gemm_run(p); });
}


int jt_sort(const int64_t* words) {
  sort_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype) || r.ndim < 1 || r.dim < 0 || r.dim >= r.ndim) return JT_INVALID;
  SortPlan p;
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.dim = (int)r.dim;
  p.descending = r.descending != 0;
  p.values = P(r.values);
  p.indices = P(r.indices);
  p.in = P(r.in);
  p.sizes = r.sizes;
  p.values_strides = r.values_strides;
  p.indices_strides = r.indices_strides;
  p.in_strides = r.in_strides;
  return guarded([&] { return sort_run(p); });
}

int jt_select(const int64_t* words) {
  select_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype) || r.op < 0 || r.op > 2 || r.ndim < 1 || r.dim < 0 || r.dim >= r.ndim) return JT_INVALID;
  if (r.sizes[r.dim] < 1 || (r.op == 0 && (r.k < 0 || r.k >= r.sizes[r.dim]))) return JT_INVALID;  // k inside every line
  return guarded([&] { return select_run(r); });
}

int jt_search(const int64_t* words) {
  search_plan r(words);
  if (!search_plan_valid(r)) return JT_INVALID;
  return guarded([&] { return search_run(r); });
}

// The fields every plan along one dim (scan, softmax) shares, read by name from its plan reader.
template <typename Reader>
void read_along_dim(const Reader& r, AlongDimPlan& p) {
  p.dtype = (DType)r.dtype;
  p.ndim = (int)r.ndim;
  p.dim = (int)r.dim;
  p.out = P(r.out);
  p.in = P(r.in);
  p.sizes = r.sizes;
  p.out_strides = r.out_strides;
  p.in_strides = r.in_strides;
}

int jt_softmax(const int64_t* words) {
  softmax_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype) || r.ndim < 1 || r.ndim > 64 || r.dim < 0 || r.dim >= r.ndim) return JT_INVALID;
  SoftmaxPlan p;
  read_along_dim(r, p);
  p.log = r.log != 0;
  return guarded([&] { return softmax_run(p); });
}

int jt_windows(const int64_t* words) {
  windows_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype)) return JT_INVALID;
  return guarded([&] { return windows_run(r); });
}

int jt_max_pool(const int64_t* words) {
  max_pool_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype)) return JT_INVALID;
  return guarded([&] { return max_pool_run(r); });
}

int jt_norm(const int64_t* words) {
  norm_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype)) return JT_INVALID;
  return guarded([&] { return norm_run(r); });
}

int jt_attention(const int64_t* words) {
  attention_plan r(words);
  if (!r.current()) return JT_INVALID;
  return guarded([&] { return attention_run(r); });
}

int jt_conv(const int64_t* words) {
  conv_plan r(words);
  if (!r.current()) return JT_INVALID;
  return guarded([&] { return conv_run(r); });
}

int jt_grid_sample(const int64_t* words) {
  grid_sample_plan r(words);
  if (!r.current()) return JT_INVALID;
  return guarded([&] { return grid_sample_run(r); });
}

int jt_scan(const int64_t* words) {
  scan_plan r(words);
  if (!r.current() || r.ndim < 1 || r.ndim > 64 || r.dim < 0 || r.dim >= r.ndim) return JT_INVALID;
  const int out = scan_out_dtype((int)r.op, (int)r.dtype);
  if (out < 0) return JT_NO_KERNEL;
  if (r.out_dtype != out) return JT_INVALID;
  ScanPlan p;
  read_along_dim(r, p);
  p.op = (int)r.op;
  p.indices = reinterpret_cast<int64_t*>(r.indices);
  p.indices_strides = r.indices_strides;
  if ((p.op == kCummax || p.op == kCummin) && p.indices == nullptr) return JT_INVALID;
  return guarded([&] { return p.op <= kCumprod ? scan_run(p) : scan_ordered_run(p); });
}
