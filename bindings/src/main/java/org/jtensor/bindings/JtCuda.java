package org.jtensor.bindings;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;

/**
 * The bridge to libjtensor_cuda's C API ({@code cuda-kernels/include/jtc/jtc.h}): jtensor's own
 * CUDA kernels and allocator. Its natives exist only in a jar built where nvcc was (Maven's cuda
 * profile), and they need the machine's libcudart.so.13: so nothing may touch this class until
 * org.jtensor's CUDA probe has found both, after loading the bytedeco CUDA presets, whose
 * libcudart.so.13 this library then shares. Addresses cross as {@code long}; the caller holds the
 * storages behind them, as for {@link JtNative}.
 */
@Platform(include = {"jtc/jtc.h", "jtc/jtc_gemm.h"}, link = {"jtensor", "jtensor_cuda"})
@NoException
public final class JtCuda {
  static {
    Loader.load();
  }

  private JtCuda() {}

  /** Loads the natives now (UnsatisfiedLinkError when they or libcudart.so.13 are missing). */
  public static void load() {}

  public static native String jtc_last_error();
  public static native int jtc_init();

  public static native int jtc_elementwise(@Cast("const int64_t*") long[] plan);
  public static native int jtc_ew_op_info(int op, int dtype);
  public static native int jtc_ew_op_count();
  public static native String jtc_ew_op_name(int op);
  public static native int jtc_copy(@Cast("const int64_t*") long[] plan);
  public static native int jtc_fill(@Cast("const int64_t*") long[] plan);
  public static native int jtc_reduce(@Cast("const int64_t*") long[] plan);
  public static native int jtc_gemm(@Cast("const int64_t*") long[] plan);
  public static native int jtc_arange(long dst, int dtype, long n, int isIntegral, long startBits, long stepBits);
  public static native int jtc_linspace(long dst, int dtype, long steps, double start, double end);
  public static native int jtc_scan(@Cast("const int64_t*") long[] plan);
  public static native int jtc_sort(@Cast("const int64_t*") long[] plan);
  public static native int jtc_index_along(@Cast("const int64_t*") long[] plan, @Cast("int64_t*") long[] bad);
  public static native int jtc_index_advanced(@Cast("const int64_t*") long[] plan, @Cast("int64_t*") long[] bad);
  public static native int jtc_nonzero(@Cast("const int64_t*") long[] plan, @Cast("int64_t*") long[] found);
  public static native int jtc_random(@Cast("const int64_t*") long[] plan, double[] bad);
  public static native int jtc_softmax(@Cast("const int64_t*") long[] plan);
  public static native int jtc_windows(@Cast("const int64_t*") long[] plan);
  public static native int jtc_max_pool(@Cast("const int64_t*") long[] plan);
  public static native int jtc_norm(@Cast("const int64_t*") long[] plan);
  public static native int jtc_attention(@Cast("const int64_t*") long[] plan);
  public static native int jtc_search(@Cast("const int64_t*") long[] plan);
  public static native int jtc_attention_fused(int dtype, long e, long ev);

  public static native int jtc_memcpy_d2d(long dst, long src, long nbytes);
  public static native int jtc_memcpy_to_host(long dstHost, long src, long nbytes);
  public static native int jtc_memcpy_to_device(long dst, long srcHost, long nbytes);
  public static native int jtc_synchronize();
  public static native void jtc_set_current_stream(long stream);
  public static native long jtc_current_stream();
  public static native int jtc_memcpy_to_device_async(long dst, long srcHost, long nbytes);
  public static native long jtc_pinned_storage_new(long nbytes);
  public static native void jtc_pinned_stats(@Cast("int64_t*") long[] out);
  public static native void jtc_pinned_empty_cache();
  public static native int jtc_load_f64(long addr, int dtype, double[] out);
  public static native int jtc_load_i64(long addr, int dtype, @Cast("int64_t*") long[] out);
  public static native int jtc_store_f64(long addr, int dtype, double value);
  public static native int jtc_store_i64(long addr, int dtype, long value);

  // ---- bytes between device memory and Java arrays (synchronous) ----
  public static native int jtc_read_bytes(long src, byte[] dst, long nbytes);
  public static native int jtc_read_bytes(long src, short[] dst, long nbytes);
  public static native int jtc_read_bytes(long src, int[] dst, long nbytes);
  public static native int jtc_read_bytes(long src, long[] dst, long nbytes);
  public static native int jtc_read_bytes(long src, float[] dst, long nbytes);
  public static native int jtc_read_bytes(long src, double[] dst, long nbytes);
  public static native int jtc_write_bytes(long dst, byte[] src, long nbytes);
  public static native int jtc_write_bytes(long dst, short[] src, long nbytes);
  public static native int jtc_write_bytes(long dst, int[] src, long nbytes);
  public static native int jtc_write_bytes(long dst, long[] src, long nbytes);
  public static native int jtc_write_bytes(long dst, float[] src, long nbytes);
  public static native int jtc_write_bytes(long dst, double[] src, long nbytes);
}
