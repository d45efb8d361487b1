package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.bindings.JtNative;
import org.jtensor.core.KernelStatus;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;

/** CPU: each call packs one plan of longs and crosses JNI once; native code picks the dtype loop. */
final class CpuBackend extends PlanBackend {
  @Override int runCopy(long[] plan) { return JtNative.jt_copy(plan); }
  @Override int runFill(long[] plan) { return JtNative.jt_fill(plan); }
  @Override int runElementwise(long[] plan) { return JtNative.jt_elementwise(plan); }
  @Override int runReduce(long[] plan) { return JtNative.jt_reduce(plan); }
  @Override int runGemm(long[] plan) {
    Blas.available();  // registers OpenBLAS on first use
    return JtNative.jt_gemm(plan);
  }
  @Override int runScan(long[] plan) { return JtNative.jt_scan(plan); }
  @Override int runSort(long[] plan) { return JtNative.jt_sort(plan); }
  @Override int runSelect(long[] plan) { return JtNative.jt_select(plan); }
  @Override int runSearch(long[] plan) { return JtNative.jt_search(plan); }
  @Override int runSoftmax(long[] plan) { return JtNative.jt_softmax(plan); }
  @Override int runWindows(long[] plan) { return JtNative.jt_windows(plan); }
  @Override int runNorm(long[] plan) { return JtNative.jt_norm(plan); }
  @Override int runAttention(long[] plan) { return JtNative.jt_attention(plan); }
  @Override int runConv(long[] plan) { return JtNative.jt_conv(plan); }
  /** The direct kernels take float32 and float64 (vectorized/convolution.cpp). */
  @Override public boolean convolvesDirectly(DType dtype) { return dtype == DType.FLOAT32 || dtype == DType.FLOAT64; }
  @Override int runMaxPool(long[] plan) { return JtNative.jt_max_pool(plan); }
  @Override int runGridSample(long[] plan) { return JtNative.jt_grid_sample(plan); }
  @Override int runIndexAlong(long[] plan, long[] bad) { return JtNative.jt_index_along(plan, bad); }
  @Override int runIndexAdvanced(long[] plan, long[] bad) { return JtNative.jt_index_advanced(plan, bad); }
  @Override int runNonzero(long[] plan, long[] found) { return JtNative.jt_nonzero(plan, found); }
  @Override int runRandom(long[] plan, double[] bad) { return JtNative.jt_random(plan, bad); }
  @Override int runArange(long dst, int dtype, long n, int integral, long start, long step) {
    JtNative.jt_arange(dst, dtype, n, integral, start, step);
    return 0;
  }
  @Override int runLinspace(long dst, int dtype, long steps, double start, double end) {
    JtNative.jt_linspace(dst, dtype, steps, start, end);
    return 0;
  }

  CpuBackend() {
    super(Device.CPU);
  }

  @Override
  public double loadDouble(String op, TensorImpl t, long elementOffset) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      return JtNative.jt_load_f64(held.elementAddress(m, elementOffset), m.dtype.code());
    }
  }

  @Override
  public long loadLong(String op, TensorImpl t, long elementOffset) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      return JtNative.jt_load_i64(held.elementAddress(m, elementOffset), m.dtype.code());
    }
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, double value) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      JtNative.jt_store_f64(held.outputElement(m, elementOffset), m.dtype.code(), value);
    }
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, long value) {
    try (HeldOperands held = new HeldOperands(op)) {
      TensorImpl.Meta m = t.meta();  // the element's dtype and storage from one snapshot
      JtNative.jt_store_i64(held.outputElement(m, elementOffset), m.dtype.code(), value);
    }
  }

  @Override
  public void read(String op, TensorImpl t, Object array) {
    TensorImpl.Meta m = t.meta();  // bytes counted and read from one snapshot
    long n = m.numel * m.dtype.itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.flatAddress(m);
      if (array instanceof float[]) JtNative.jt_read_bytes(addr, (float[]) array, n);
      else if (array instanceof double[]) JtNative.jt_read_bytes(addr, (double[]) array, n);
      else if (array instanceof long[]) JtNative.jt_read_bytes(addr, (long[]) array, n);
      else if (array instanceof int[]) JtNative.jt_read_bytes(addr, (int[]) array, n);
      else if (array instanceof short[]) JtNative.jt_read_bytes(addr, (short[]) array, n);
      else JtNative.jt_read_bytes(addr, (byte[]) array, n);
    }
  }

  @Override
  public void write(String op, TensorImpl t, Object array) {
    TensorImpl.Meta m = t.meta();  // bytes counted and written from one snapshot
    long n = m.numel * m.dtype.itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.flatOutput(m);
      if (array instanceof float[]) JtNative.jt_write_bytes(addr, (float[]) array, n);
      else if (array instanceof double[]) JtNative.jt_write_bytes(addr, (double[]) array, n);
      else if (array instanceof long[]) JtNative.jt_write_bytes(addr, (long[]) array, n);
      else if (array instanceof int[]) JtNative.jt_write_bytes(addr, (int[]) array, n);
      else if (array instanceof short[]) JtNative.jt_write_bytes(addr, (short[]) array, n);
      else JtNative.jt_write_bytes(addr, (byte[]) array, n);
    }
  }

  @Override
  public boolean hasElementwise(Op op, DType dtype) {
    return CpuKernels.supports(op, dtype);
  }

  @Override
  public void copyBytes(String op, StorageImpl dst, StorageImpl src, long nbytes) {
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.outputStorage(dst, nbytes), s = held.storageAddress(src, nbytes);
      JtNative.jt_memcpy(d, s, nbytes);
    }
  }

  @Override
  public void luFactor(String op, TensorImpl a, TensorImpl pivots, TensorImpl info) {
    long n = side(op, a), batch = info.numel();
    requireLaidOut(op, a, batch * n * n, pivots, batch * n, info, batch);
    try (HeldOperands held = new HeldOperands(op)) {
      check(JtNative.jt_lu_factor(held.flatOutput(a), a.dtype().code(), batch, n, held.flatOutput(pivots), held.flatOutput(info)), op, a.dtype());
    }
  }

  @Override
  public void luSolve(String op, TensorImpl lu, TensorImpl pivots, TensorImpl b) {
    long n = side(op, lu), batch = pivots.numel() / Math.max(1, n), k = b.sizes()[b.dim() - 1];
    requireLaidOut(op, lu, batch * n * n, pivots, batch * n, b, batch * n * k);
    if (b.dtype() != lu.dtype()) throw new IllegalStateException(op + "(): the right-hand side's dtype differs from the factors'");
    try (HeldOperands held = new HeldOperands(op)) {
      check(JtNative.jt_lu_solve(held.flatAddress(lu), held.flatAddress(pivots), lu.dtype().code(), batch, n, k, held.flatOutput(b)), op,
          lu.dtype());
    }
  }

  @Override
  public void cholesky(String op, TensorImpl a, TensorImpl info) {
    long n = side(op, a), batch = info.numel();
    requireLaidOut(op, a, batch * n * n, info, batch, info, batch);
    try (HeldOperands held = new HeldOperands(op)) {
      check(JtNative.jt_cholesky(held.flatOutput(a), a.dtype().code(), batch, n, held.flatOutput(info)), op, a.dtype());
    }
  }

  /** The side of a's square matrices (a at least 2-D: the ops check that first). */
  private static long side(String op, TensorImpl a) {
    if (a.dim() < 2) throw new IllegalStateException(op + "(): factorization operands must be matrices");
    return a.sizes()[a.dim() - 1];
  }

  /**
   * The kernels walk flat runs of the counts the ops computed: they hand them fresh contiguous
   * tensors, int32 index; anything else is a bug refused here rather than a read outside a storage.
   */
  private static void requireLaidOut(String op, TensorImpl a, long aCount, TensorImpl index, long indexCount, TensorImpl other, long otherCount) {
    int d = a.dim();
    boolean ok = a.sizes()[d - 1] == a.sizes()[d - 2] && a.isContiguous() && a.numel() == aCount && index.dtype() == DType.INT32
        && index.isContiguous() && index.numel() == indexCount && other.isContiguous() && other.numel() == otherCount;
    if (!ok) throw new IllegalStateException(op + "(): factorization operands laid out unlike their matrices");
  }

  /** A kernel's status: scratch memory refused, no kernel, else a plan native code refused (an index out of range is the caller's). */
  @Override
  void check(int status, String op, DType dtype) {
    KernelStatus s = KernelStatus.of(status);
    if (s == KernelStatus.OK) return;
    if (s == KernelStatus.NO_KERNEL) throw new UnsupportedOperationException(op + " has no CPU kernel for " + dtype);
    if (s == KernelStatus.OUT_OF_MEMORY) throw memory().outOfMemory(op);
    throw new IllegalStateException(op + " failed in native code (" + (s == null ? "status " + status : s) + ") on " + dtype);
  }
}
