package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.bindings.JtCuda;
import org.jtensor.core.KernelStatus;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;

/**
 * CUDA: the CPU's plans, packed the same way, run by libjtensor_cuda's kernels on the current
 * stream. Storages come from the CUDA caching allocator (jt_device_type CUDA); kernels are
 * asynchronous, reads into Java wait for them. A primitive without a CUDA kernel throws
 * UnsupportedOperationException naming the op and dtype (DESIGN §5), never a wrong answer.
 */
final class CudaBackend extends PlanBackend {
  @Override int runCopy(long[] plan) { return JtCuda.jtc_copy(plan); }
  @Override int runFill(long[] plan) { return JtCuda.jtc_fill(plan); }
  @Override int runElementwise(long[] plan) { return JtCuda.jtc_elementwise(plan); }
  /** sum, prod, amax, amin, any, all (and mean, a scaled sum), argmax, argmin. */
  @Override int runReduce(long[] plan) { return JtCuda.jtc_reduce(plan); }
  /** jtensor's own GEMM: every dtype; the float ones only where cuBLAS is missing or cannot read the operands. */
  @Override int runGemm(long[] plan) { return JtCuda.jtc_gemm(plan); }
  @Override int runScan(long[] plan) { return JtCuda.jtc_scan(plan); }
  @Override int runSort(long[] plan) { return JtCuda.jtc_sort(plan); }
  /** kthvalue, mode and nanmedian(dim) have no CUDA kernel yet: the ops refuse CUDA tensors before they get here. */
  @Override int runSelect(long[] plan) { return KernelStatus.NO_KERNEL.code(); }
  @Override int runSearch(long[] plan) { return JtCuda.jtc_search(plan); }
  @Override int runSoftmax(long[] plan) { return JtCuda.jtc_softmax(plan); }
  @Override int runWindows(long[] plan) { return JtCuda.jtc_windows(plan); }
  @Override int runNorm(long[] plan) { return JtCuda.jtc_norm(plan); }
  @Override int runAttention(long[] plan) { return JtCuda.jtc_attention(plan); }
  /** The kernels' head sizes and the device's shared memory decide (jtc_attention_fused). */
  @Override public boolean fusesAttention(DType dtype, long e, long ev) { return JtCuda.jtc_attention_fused(dtype.code(), e, ev) != 0; }
  @Override int runMaxPool(long[] plan) { return JtCuda.jtc_max_pool(plan); }
  @Override int runIndexAlong(long[] plan, long[] bad) { return JtCuda.jtc_index_along(plan, bad); }
  @Override int runIndexAdvanced(long[] plan, long[] bad) { return JtCuda.jtc_index_advanced(plan, bad); }
  /** Waits for the device: the count decides the output's size, as in PyTorch. */
  @Override int runNonzero(long[] plan, long[] found) { return JtCuda.jtc_nonzero(plan, found); }
  @Override int runRandom(long[] plan, double[] bad) { return JtCuda.jtc_random(plan, bad); }
  @Override int runArange(long dst, int dtype, long n, int integral, long start, long step) {
    return JtCuda.jtc_arange(dst, dtype, n, integral, start, step);
  }
  @Override int runLinspace(long dst, int dtype, long steps, double start, double end) {
    return JtCuda.jtc_linspace(dst, dtype, steps, start, end);
  }

  @Override
  boolean gemmElsewhere(String op, GemmCall g, long a, long b, long c) {
    return CudaBlas.tryGemm(op, g, a, b, c, JtCuda.jtc_current_stream());  // the kernels' stream: one order for both
  }

  CudaBackend(Device device) {
    super(device);
  }

  @Override
  public double loadDouble(String op, TensorImpl t, long elementOffset) {
    double[] out = new double[1];
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      check(JtCuda.jtc_load_f64(held.elementAddress(m, elementOffset), m.dtype.code(), out), op, m.dtype);
    }
    return out[0];
  }

  @Override
  public long loadLong(String op, TensorImpl t, long elementOffset) {
    long[] out = new long[1];
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      check(JtCuda.jtc_load_i64(held.elementAddress(m, elementOffset), m.dtype.code(), out), op, m.dtype);
    }
    return out[0];
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, double value) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      check(JtCuda.jtc_store_f64(held.outputElement(m, elementOffset), m.dtype.code(), value), op, m.dtype);
    }
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, long value) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      check(JtCuda.jtc_store_i64(held.outputElement(m, elementOffset), m.dtype.code(), value), op, m.dtype);
    }
  }

  @Override
  public void read(String op, TensorImpl t, Object array) {
    TensorImpl.Meta m = t.meta();  // bytes counted and read from one snapshot
    long n = m.numel * m.dtype.itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.flatAddress(m);
      int status;
      if (array instanceof float[]) status = JtCuda.jtc_read_bytes(addr, (float[]) array, n);
      else if (array instanceof double[]) status = JtCuda.jtc_read_bytes(addr, (double[]) array, n);
      else if (array instanceof long[]) status = JtCuda.jtc_read_bytes(addr, (long[]) array, n);
      else if (array instanceof int[]) status = JtCuda.jtc_read_bytes(addr, (int[]) array, n);
      else if (array instanceof short[]) status = JtCuda.jtc_read_bytes(addr, (short[]) array, n);
      else status = JtCuda.jtc_read_bytes(addr, (byte[]) array, n);
      check(status, op, t.dtype());
    }
  }

  @Override
  public void write(String op, TensorImpl t, Object array) {
    TensorImpl.Meta m = t.meta();  // bytes counted and written from one snapshot
    long n = m.numel * m.dtype.itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.flatOutput(m);
      int status;
      if (array instanceof float[]) status = JtCuda.jtc_write_bytes(addr, (float[]) array, n);
      else if (array instanceof double[]) status = JtCuda.jtc_write_bytes(addr, (double[]) array, n);
      else if (array instanceof long[]) status = JtCuda.jtc_write_bytes(addr, (long[]) array, n);
      else if (array instanceof int[]) status = JtCuda.jtc_write_bytes(addr, (int[]) array, n);
      else if (array instanceof short[]) status = JtCuda.jtc_write_bytes(addr, (short[]) array, n);
      else status = JtCuda.jtc_write_bytes(addr, (byte[]) array, n);
      check(status, op, t.dtype());
    }
  }

  @Override
  public boolean hasElementwise(Op op, DType dtype) {
    return CudaKernels.supports(op, dtype);
  }

  @Override
  public void copyBytes(String op, StorageImpl dst, StorageImpl src, long nbytes) {
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.outputStorage(dst, nbytes), s = held.storageAddress(src, nbytes);
      check(JtCuda.jtc_memcpy_d2d(d, s, nbytes), op, DType.UINT8);
    }
  }

  static UnsupportedOperationException noKernel(String op, DType dtype) {
    return new UnsupportedOperationException(op + " has no CUDA kernel for " + dtype);
  }

  /** A kernel's status: memory refused, no kernel, the CUDA runtime's error, else a plan native code refused. */
  @Override
  void check(int status, String op, DType dtype) {
    KernelStatus s = KernelStatus.of(status);
    if (s == KernelStatus.OK) return;
    if (s == KernelStatus.OUT_OF_MEMORY) throw memory().outOfMemory(op);
    if (s == KernelStatus.NO_KERNEL) throw noKernel(op, dtype);
    if (s == KernelStatus.CUDA_ERROR) throw new IllegalStateException(op + "(): CUDA error: " + JtCuda.jtc_last_error());
    throw new IllegalStateException(op + " failed in native code (" + (s == null ? "status " + status : s) + ") on " + dtype);
  }
}
