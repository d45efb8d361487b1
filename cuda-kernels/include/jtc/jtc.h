// The C API of libjtensor_cuda: jtensor's own CUDA kernels and its CUDA allocator, reached from
// Java through org.jtensor.bindings.JtCuda. Plain C types only; addresses cross as int64_t. The
// CUDA runtime services Java needs (device count, properties, synchronize) come from the bytedeco
// CUDA presets instead, over the same shared libcudart.so.13, so both see one context.
#pragma once
#include <stdint.h>

#include "jt/jt.h"  // jt_status

#ifdef __cplusplus
extern "C" {
#endif

#define JTC_API __attribute__((visibility("default")))

// Kernel entry points answer jt.h's jt_status codes, JTC_CUDA_ERROR (jt.h's JT_CUDA_ERROR) when
// the runtime refused a launch or a copy (jtc_last_error names it).
enum { JTC_CUDA_ERROR = JT_CUDA_ERROR };

// The CUDA runtime's error of the calling thread's last failed call here, as
// "cudaErrorName: description"; "" when none.
JTC_API const char* jtc_last_error(void);
// Makes device 0's CUDA allocator the storages' allocator for jt_device_type CUDA (idempotent).
// Returns a cudaError_t (0 when registered).
JTC_API int jtc_init(void);

// ---- the plans of jt/plans.h, on device memory, on the current stream (asynchronous) ----
JTC_API int jtc_elementwise(const int64_t* plan);
JTC_API int jtc_ew_op_info(int op, int dtype);  // as jt_ew_op_info: 0 when CUDA has no kernel
JTC_API int jtc_ew_op_count(void);
JTC_API const char* jtc_ew_op_name(int op);     // the same order as the CPU's table, checked at load
JTC_API int jtc_copy(const int64_t* plan);      // device to device, any dtypes
JTC_API int jtc_fill(const int64_t* plan);
// A reduce plan: sum, prod, amax, amin, any, all (JT_NO_KERNEL for the arg reductions).
JTC_API int jtc_reduce(const int64_t* plan);
// As jt_arange, into device memory.
JTC_API int jtc_arange(int64_t dst, int dtype, int64_t n, int is_integral, int64_t start_bits, int64_t step_bits);
// As jt_linspace, into device memory.
JTC_API int jtc_linspace(int64_t dst, int dtype, int64_t steps, double start, double end);
// The remaining plans, with the CPU's statuses and out-parameters (jt.h): jt_scan, jt_sort,
// jt_index_along (4: *bad the first out-of-range index, nothing written), jt_index_advanced (4:
// bad[0] the index, bad[1] which index tensor), jt_nonzero (*found the count; waits for the
// device), jt_random (5: *bad the first probability outside [0, 1], nothing written).
JTC_API int jtc_scan(const int64_t* plan);
JTC_API int jtc_sort(const int64_t* plan);
JTC_API int jtc_index_along(const int64_t* plan, int64_t* bad);
JTC_API int jtc_index_advanced(const int64_t* plan, int64_t* bad);
JTC_API int jtc_nonzero(const int64_t* plan, int64_t* found);
JTC_API int jtc_random(const int64_t* plan, double* bad);
// A softmax plan (plans.h): softmax or log_softmax along dim, the CPU kernel's types and NaN rules.
JTC_API int jtc_softmax(const int64_t* plan);
// A windows plan (plans.h): im2col (fold 0) or col2im (fold 1), the CPU kernels' geometry (jt/windows.h).
JTC_API int jtc_windows(const int64_t* plan);
// A max_pool plan (plans.h): each window's maximum and its index, the CPU kernel's NaN and tie rules.
JTC_API int jtc_max_pool(const int64_t* plan);
// A norm plan (plans.h): batch, layer or group norm, forward or backward (jt/norm.h, the CPU kernel's algebra).
JTC_API int jtc_norm(const int64_t* plan);
// An attention plan (plans.h): fused scaled dot-product attention forward, backward or dropout
// factors, the CPU kernel's algebra and Philox draws; JT_NO_KERNEL where jtc_attention_fused says 0.
JTC_API int jtc_attention(const int64_t* plan);
// A search plan (plans.h): searchsorted's positions, the CPU kernel's comparisons (jt/search.h).
JTC_API int jtc_search(const int64_t* plan);
// 1 when this device runs the fused kernels (modes 0 and 1) for dtype and head sizes e and ev:
// float32 up to 128, float64 up to 64, within the device's shared memory; else 0.
JTC_API int jtc_attention_fused(int dtype, int64_t e, int64_t ev);

// ---- bytes between host and device (synchronous for the host's buffer) ----
JTC_API int jtc_memcpy_d2d(int64_t dst, int64_t src, int64_t nbytes);
JTC_API int jtc_read_bytes(int64_t src, void* dst, int64_t nbytes);         // device to host
JTC_API int jtc_write_bytes(int64_t dst, const void* src, int64_t nbytes);  // host to device
// The same between a host address (CPU storage) and a device address.
JTC_API int jtc_memcpy_to_host(int64_t dst_host, int64_t src, int64_t nbytes);
JTC_API int jtc_memcpy_to_device(int64_t dst, int64_t src_host, int64_t nbytes);
JTC_API int jtc_synchronize(void);  // waits for the current stream
// The calling thread's current stream (a cudaStream_t's bits; 0 the legacy default): the stream
// its kernels, copies and storage allocations run on. Java's Cuda.withStream sets it.
JTC_API void jtc_set_current_stream(int64_t stream);
JTC_API int64_t jtc_current_stream(void);
// Host to device on the current stream without waiting: src_host must be pinned (page-locked) and
// stay unreused until the copy has run (jt_storage_record_stream on its storage).
JTC_API int jtc_memcpy_to_device_async(int64_t dst, int64_t src_host, int64_t nbytes);
// A CPU storage of page-locked memory from the pinned host caching allocator (pin_memory); 0 when
// the host refuses. Its stats (jt_stat_count() values, the caching allocators' key names) and
// emptying its cache of blocks no storage holds.
JTC_API int64_t jtc_pinned_storage_new(int64_t nbytes);
JTC_API void jtc_pinned_stats(int64_t* out);
JTC_API void jtc_pinned_empty_cache(void);
// One element at a device address, converted from/to double or int64 as jt_load_f64 and friends.
JTC_API int jtc_load_f64(int64_t addr, int dtype, double* out);
JTC_API int jtc_load_i64(int64_t addr, int dtype, int64_t* out);
JTC_API int jtc_store_f64(int64_t addr, int dtype, double value);
JTC_API int jtc_store_i64(int64_t addr, int dtype, int64_t value);

#ifdef __cplusplus
}
#endif
