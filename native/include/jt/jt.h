// The C API of libjtensor: plain C types only, so the JavaCPP binding stays tiny.
// Addresses and handles cross as int64_t. Functions that can fail return a jt_status.
#pragma once
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JT_API __attribute__((visibility("default")))

// Kernel entry points that return int answer JT_OK, JT_OUT_OF_MEMORY (scratch memory was
// refused), JT_INVALID (a plan of another layout version, an output dtype the kernel would not
// write, an offset outside its storage) or JT_NO_KERNEL (no kernel for the op and dtype).
// JT_INDEX_OUT_OF_RANGE: an index tensor held a value outside its dim (reported, nothing written).
// JT_VALUE_OUT_OF_RANGE: an input tensor held a value outside the op's domain (reported, nothing written).
// JT_CUDA_ERROR (libjtensor_cuda only): the CUDA runtime refused a launch or a copy (jtc_last_error).
// The one list of the codes, in code order; Java's KernelStatus is checked against it at load.
#define JT_FORALL_STATUSES(X) \
  X(OK) X(OUT_OF_MEMORY) X(INVALID) X(NO_KERNEL) X(INDEX_OUT_OF_RANGE) X(VALUE_OUT_OF_RANGE) X(CUDA_ERROR)
enum jt_status {
#define JT_STATUS_ENUM(name) JT_##name,
  JT_FORALL_STATUSES(JT_STATUS_ENUM)
#undef JT_STATUS_ENUM
};
JT_API int jt_status_count(void);
JT_API const char* jt_status_name(int code);  // "out_of_memory"; nullptr for an unknown code

// ---- plans (jt/plans.h): each kernel below takes one int64 array laid out as its list there ----
JT_API int jt_plan_version(void);
// "version,ndim,...,sizes[ndim],..." for a plan name ("copy", "elementwise", ...); nullptr if unknown.
JT_API const char* jt_plan_layout(const char* name);

// ---- the dtype table (jt/dtype.h's JT_FORALL_DTYPES): Java's DType reads it at load ----
JT_API int jt_dtype_count(void);
JT_API const char* jt_dtype_name(int code);  // "float32"; nullptr for an unknown code
JT_API int jt_dtype_item_size(int code);     // bytes; -1 for an unknown code
JT_API int jt_dtype_kind(int code);          // 0 bool, 1 integral, 2 floating; -1 for an unknown code

// ---- devices: each storage is owned by its device's allocator (jt_device_type codes) ----
enum jt_device_type { JT_DEVICE_CPU = 0, JT_DEVICE_CUDA = 1 };
JT_API const char* jt_device_type_name(int device);  // "cpu", "cuda"; nullptr for an unknown code
JT_API int jt_device_has_allocator(int device);      // 1 when storages can be made on it now

// ---- storage: an intrusively counted block from a device's caching allocator ----
// Returns a StorageImpl* with a reference count of 1, or 0 when memory is out even after the
// allocator freed its cache and retried, or when the device has no allocator.
JT_API int64_t jt_storage_new(int device, int64_t nbytes);
// A CPU storage over [address, address + nbytes), bytes owned by other code (a direct buffer, a mapped
// file): releasing it never frees them (the owner's release runs in Java). Counted apart from the
// caching allocator: jt_wrapped_stats writes current, peak, allocated and freed bytes. 0 when the
// heap refused the bookkeeping (nothing is counted; the bytes stay the caller's).
JT_API int64_t jt_storage_wrap(int64_t address, int64_t nbytes);
JT_API void jt_wrapped_stats(int64_t* out);
JT_API void jt_wrapped_reset_peak(void);
JT_API void jt_wrapped_reset_accumulated(void);
JT_API void jt_storage_retain(int64_t storage);
JT_API void jt_storage_release(int64_t storage);  // the last release frees the block, through its allocator
JT_API int64_t jt_storage_refcount(int64_t storage);
JT_API int64_t jt_storage_data(int64_t storage);
// Where a StorageImpl keeps its data pointer (offset 0): Java reads it there without a JNI call.
JT_API int64_t jt_storage_data_offset(void);
JT_API int64_t jt_storage_nbytes(int64_t storage);
JT_API int jt_storage_device(int64_t storage);
// Grows or shrinks the block, keeping min(old, new) bytes; JT_OUT_OF_MEMORY leaves it unchanged.
JT_API int jt_storage_resize(int64_t storage, int64_t nbytes);
// The storage's bytes are used on stream too (a cudaStream_t's bits; recordStream): once freed
// they are not reused before the work queued there by then has run. A no-op on the CPU. JT_OK, or
// JT_OUT_OF_MEMORY when the heap refused to note the stream (nothing was noted).
JT_API int jt_storage_record_stream(int64_t storage, uint64_t stream);

// ---- a device's caching allocator; each call does nothing (or answers 0) for a device without one ----
JT_API void jt_empty_cache(int device);
JT_API int jt_stat_count(void);
JT_API const char* jt_stat_name(int index);
JT_API void jt_memory_stats(int device, int64_t* out);  // jt_stat_count() values, in name order
JT_API void jt_reset_peak_stats(int device);
JT_API void jt_reset_accumulated_stats(int device);
// Writes the snapshot as longs: [nsegments, per segment: address, total, allocated, active,
// is_small_pool, nblocks, per block: address, size, requested, state]. state is 1 when the block
// is allocated, 0 when cached, and (CUDA) 2 while a freed block waits for the events of other
// streams it was used on. CUDA adds, after the segments, one long per segment in the same order:
// the stream it serves. Returns the number of longs it needs; writes only when that fits in cap;
// -1 when the heap refused the memory to list them.
JT_API int64_t jt_snapshot(int device, int64_t* out, int64_t cap);
// Bytes the allocator may reserve from the system (0 = no limit); also JT_ALLOC_CONF's
// memory_limit_mb. Past it, allocation frees the cache, retries, then reports out of memory.
JT_API void jt_set_memory_limit(int device, int64_t bytes);
JT_API int64_t jt_memory_limit(int device);
// Why the allocator's configuration (JT_ALLOC_CONF) was refused (it then runs with its
// defaults), or "" when it was valid: Java raises it when the library loads.
JT_API const char* jt_alloc_conf_error(int device);
// Why this thread's last failed allocation on the device gave 0, in PyTorch's words ("CUDA out of
// memory. Tried to allocate ..."); "" when the device's allocator says nothing (the CPU's).
// The text stays valid until this thread's next failure there.
JT_API const char* jt_oom_message(int device);

// ---- threads ----
// JT_OK; JT_INVALID for n < 1; JT_OUT_OF_MEMORY when the system refused a thread (the pool keeps its size).
JT_API int jt_set_num_threads(int n);
JT_API int jt_get_num_threads(void);

// ---- CPU capability ----
// The instruction set the vectorized CPU kernels run with: 0 baseline x86-64, 1 AVX2, 2 AVX-512.
// Every capability computes the same bits; JT_CPU_CAPABILITY=baseline|avx2|avx512 lowers the
// initial choice.
JT_API int jt_cpu_capability(void);
JT_API int jt_cpu_capability_supported(void);     // the best this CPU runs
JT_API const char* jt_cpu_capability_name(int c);  // "" when out of range
JT_API int jt_set_cpu_capability(int c);           // 0, or -1 when this CPU cannot run c

// ---- kernels ----
// A copy plan; strides in elements, 0 for broadcast dims. Converts dtypes.
JT_API int jt_copy(const int64_t* plan);
// A fill plan; value holds an int64 when integral, else the bits of a double.
JT_API int jt_fill(const int64_t* plan);
// dst[i] = start + i * step for i < n (contiguous), computed in double (or int64 when integral).
JT_API void jt_arange(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits);
// PyTorch's linspace: steps points from start to end, symmetric from both ends.
JT_API void jt_linspace(int64_t dst, int dtype, int64_t steps, double start, double end);

// ---- indexing and random draws: kernels that read index (or probability) tensors themselves ----
// An index_along plan (jt/plans.h). On JT_INDEX_OUT_OF_RANGE, *bad holds the first bad index.
JT_API int jt_index_along(const int64_t* plan, int64_t* bad);
// The plan's mode code of "gather", "scatter" or "accumulate"; -1 for another name.
JT_API int jt_index_along_mode(const char* name);

// An index_advanced plan. On JT_INDEX_OUT_OF_RANGE, bad[0] holds the first bad index and bad[1]
// the position of the index tensor that held it.
JT_API int jt_index_advanced(const int64_t* plan, int64_t* bad);
// A nonzero plan: with out 0, *found is the count; else the coordinates are written (at most
// rows of them) and *found is how many there were (rows, unless the source changed meanwhile).
JT_API int jt_nonzero(const int64_t* plan, int64_t* found);

// A random plan (jt/plans.h). On JT_VALUE_OUT_OF_RANGE, *bad holds the first probability outside [0, 1].
JT_API int jt_random(const int64_t* plan, double* bad);
JT_API int jt_random_kind(const char* name);  // -1 for an unknown name
// The four 32-bit words of Philox4x32-10 block counter under key, for tests.
JT_API void jt_philox_block(int64_t key, int64_t counter, int32_t* out);

// ---- elementwise ops (the functor table in jt/functors.h) ----
JT_API int jt_ew_op_id(const char* name);   // -1 when unknown
JT_API int jt_ew_op_info(int op, int dtype);  // 0: no kernel; else 1 | arity << 1 | (bool result) << 4
JT_API int jt_ew_op_count(void);
JT_API const char* jt_ew_op_name(int op);

// ---- the reduction and scan tables, by name (Java checks its op registry against them at load) ----
JT_API int jt_reduce_op_id(const char* name);       // -1 when unknown
JT_API int jt_reduce_out_dtype(int op, int dtype);  // the dtype the kernel writes, -1: no kernel
JT_API int jt_scan_op_id(const char* name);
JT_API int jt_scan_out_dtype(int op, int dtype);
// An elementwise plan. Operand 0 is the output. An operand whose address is 0 is a scalar: its
// value and dtype are in its scalars entry (converted here, rounding once) and its strides are 0.
JT_API int jt_elementwise(const int64_t* plan);

// ---- reductions ----
// A reduce plan: op from jt_reduce_op_id, values 0 unless an arg reduction, divisor as double bits.
JT_API int jt_reduce(const int64_t* plan);

// ---- matrix multiply ----
// Registers cblas_sgemm, cblas_dgemm and openblas_set_num_threads found at run time (0 for none).
JT_API void jt_blas_register(int64_t sgemm, int64_t dgemm, int64_t set_threads);
JT_API int jt_blas_available(void);
// A gemm plan: C = alpha A B + beta C per batch entry; alpha and beta as double bits.
JT_API int jt_gemm(const int64_t* plan);

// A scan plan: op from jt_scan_op_id.
JT_API int jt_scan(const int64_t* plan);

// A sort plan (plans.h): values and indices along dim, stable, NaN largest.
JT_API int jt_sort(const int64_t* plan);
// A select plan (plans.h): the position of each line's k-th smallest element or of its mode.
JT_API int jt_select(const int64_t* plan);
// A search plan (plans.h): searchsorted's positions; JT_INDEX_OUT_OF_RANGE for a sorter entry outside its row.
JT_API int jt_search(const int64_t* plan);
// A softmax plan (plans.h): softmax or log_softmax along dim; JT_NO_KERNEL for a non-floating dtype.
JT_API int jt_softmax(const int64_t* plan);
// A windows plan (plans.h): im2col (fold 0) or col2im (fold 1); JT_NO_KERNEL for a non-floating dtype.
JT_API int jt_windows(const int64_t* plan);
// A max_pool plan (plans.h): each window's maximum and its index; JT_NO_KERNEL for bool.
JT_API int jt_max_pool(const int64_t* plan);
// A norm plan (plans.h): batch, layer or group norm forward or backward; JT_NO_KERNEL for a non-floating dtype.
JT_API int jt_norm(const int64_t* plan);
// An attention plan (plans.h): fused scaled dot-product attention forward, backward or dropout factors;
// JT_NO_KERNEL for a dtype other than float32/float64.
JT_API int jt_attention(const int64_t* plan);
// A conv plan (plans.h): direct stride-1 convolution forward, input or weight gradient;
// JT_NO_KERNEL for a dtype other than float32/float64.
JT_API int jt_conv(const int64_t* plan);
// A grid_sample plan (plans.h): grid_sample's forward or backward; JT_NO_KERNEL for a dtype other than float32/float64.
JT_API int jt_grid_sample(const int64_t* plan);

// ---- dense factorizations (kernels/linalg.h): `batch` contiguous row-major matrices, float32/float64 ----
// LU with partial pivoting in place; pivots [batch, n] int32 1-based, info [batch] int32 (0, or U's first zero diagonal, 1-based).
JT_API int jt_lu_factor(int64_t a, int dtype, int64_t batch, int64_t n, int64_t pivots, int64_t info);
// b's n x k matrices become A^-1 b from jt_lu_factor's lu and pivots (one factorization per b).
JT_API int jt_lu_solve(int64_t lu, int64_t pivots, int dtype, int64_t batch, int64_t n, int64_t k, int64_t b);
// Lower Cholesky factor in place from the lower triangle; info [batch] int32 (0, or the order of the first minor not positive-definite).
JT_API int jt_cholesky(int64_t a, int dtype, int64_t batch, int64_t n, int64_t info);

// One element at an address, converted from/to double or int64.
JT_API double jt_load_f64(int64_t addr, int dtype);
JT_API int64_t jt_load_i64(int64_t addr, int dtype);
JT_API void jt_store_f64(int64_t addr, int dtype, double value);
JT_API void jt_store_i64(int64_t addr, int dtype, int64_t value);

// Bulk bytes between native memory and a host buffer (a Java array through the binding).
JT_API void jt_read_bytes(int64_t src, void* dst, int64_t nbytes);
JT_API void jt_write_bytes(int64_t dst, const void* src, int64_t nbytes);
JT_API void jt_memcpy(int64_t dst, int64_t src, int64_t nbytes);  // parallel, for benchmarks

// ---- reference loops for the benchmarks (plain, single-threaded; not used by any op) ----
JT_API void jt_ref_add_f32(int64_t dst, int64_t a, int64_t b, int64_t n);
JT_API void jt_ref_sum_f32(int64_t dst, int64_t src, int64_t rows, int64_t cols, int dim);

#ifdef __cplusplus
}
#endif
