package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.TensorImpl;
import org.jtensor.bindings.JtNative;
import org.jtensor.memory.Memory;
import org.jtensor.memory.StorageImpl;
import org.jtensor.memory.TensorOutOfMemoryException;

/** CPU: each call packs one plan of longs and crosses JNI once; native code picks the dtype loop. */
final class CpuBackend implements Backend {
  @Override
  public Device device() {
    return Device.CPU;
  }

  @Override
  public StorageImpl allocate(long nbytes, Object what) {
    return StorageImpl.allocate(nbytes, Device.CPU, what);
  }

  @Override
  public void copy(TensorImpl dst, TensorImpl src) {
    int n = dst.dim();
    long[] plan = new long[5 + 3 * n];
    plan[0] = n;
    plan[1] = dst.dataAddress();
    plan[2] = dst.dtype().code();
    plan[3] = src.dataAddress();
    plan[4] = src.dtype().code();
    System.arraycopy(dst.sizes(), 0, plan, 5, n);
    System.arraycopy(dst.strides(), 0, plan, 5 + n, n);
    System.arraycopy(src.strides(), 0, plan, 5 + 2 * n, n);
    JtNative.jt_copy(plan);
  }

  @Override
  public void fill(TensorImpl dst, double value) {
    fill(dst, false, Double.doubleToRawLongBits(value));
  }

  @Override
  public void fill(TensorImpl dst, long value) {
    fill(dst, true, value);
  }

  private static void fill(TensorImpl dst, boolean integral, long bits) {
    int n = dst.dim();
    long[] plan = new long[5 + 2 * n];
    plan[0] = n;
    plan[1] = dst.dataAddress();
    plan[2] = dst.dtype().code();
    plan[3] = integral ? 1 : 0;
    plan[4] = bits;
    System.arraycopy(dst.sizes(), 0, plan, 5, n);
    System.arraycopy(dst.strides(), 0, plan, 5 + n, n);
    JtNative.jt_fill(plan);
  }

  @Override
  public void arange(TensorImpl dst, long start, long step) {
    JtNative.jt_arange(dst.dataAddress(), dst.dtype().code(), dst.numel(), 1, start, step);
  }

  @Override
  public void arange(TensorImpl dst, double start, double step) {
    JtNative.jt_arange(dst.dataAddress(), dst.dtype().code(), dst.numel(), 0,
        Double.doubleToRawLongBits(start), Double.doubleToRawLongBits(step));
  }

  @Override
  public void linspace(TensorImpl dst, double start, double end) {
    JtNative.jt_linspace(dst.dataAddress(), dst.dtype().code(), dst.numel(), start, end);
  }

  @Override
  public double loadDouble(TensorImpl t, long elementOffset) {
    return JtNative.jt_load_f64(t.dataAddress() + elementOffset * t.dtype().itemSize(), t.dtype().code());
  }

  @Override
  public long loadLong(TensorImpl t, long elementOffset) {
    return JtNative.jt_load_i64(t.dataAddress() + elementOffset * t.dtype().itemSize(), t.dtype().code());
  }

  @Override
  public void store(TensorImpl t, long elementOffset, double value) {
    JtNative.jt_store_f64(t.dataAddress() + elementOffset * t.dtype().itemSize(), t.dtype().code(), value);
  }

  @Override
  public void store(TensorImpl t, long elementOffset, long value) {
    JtNative.jt_store_i64(t.dataAddress() + elementOffset * t.dtype().itemSize(), t.dtype().code(), value);
  }

  @Override
  public void read(TensorImpl t, Object array) {
    long addr = t.dataAddress(), n = t.numel() * t.dtype().itemSize();
    if (array instanceof float[]) JtNative.jt_read_bytes(addr, (float[]) array, n);
    else if (array instanceof double[]) JtNative.jt_read_bytes(addr, (double[]) array, n);
    else if (array instanceof long[]) JtNative.jt_read_bytes(addr, (long[]) array, n);
    else if (array instanceof int[]) JtNative.jt_read_bytes(addr, (int[]) array, n);
    else if (array instanceof short[]) JtNative.jt_read_bytes(addr, (short[]) array, n);
    else if (array instanceof byte[]) JtNative.jt_read_bytes(addr, (byte[]) array, n);
    else throw new IllegalArgumentException("read(): unsupported array type " + array.getClass());
  }

  @Override
  public void write(TensorImpl t, Object array) {
    long addr = t.dataAddress(), n = t.numel() * t.dtype().itemSize();
    if (array instanceof float[]) JtNative.jt_write_bytes(addr, (float[]) array, n);
    else if (array instanceof double[]) JtNative.jt_write_bytes(addr, (double[]) array, n);
    else if (array instanceof long[]) JtNative.jt_write_bytes(addr, (long[]) array, n);
    else if (array instanceof int[]) JtNative.jt_write_bytes(addr, (int[]) array, n);
    else if (array instanceof short[]) JtNative.jt_write_bytes(addr, (short[]) array, n);
    else if (array instanceof byte[]) JtNative.jt_write_bytes(addr, (byte[]) array, n);
    else throw new IllegalArgumentException("write(): unsupported array type " + array.getClass());
  }

  @Override
  public void gather(TensorImpl dst, TensorImpl src, long[] offsets) {
    JtNative.jt_index_gather(dst.dataAddress(), src.dataAddress(), src.dtype().itemSize(), offsets, offsets.length);
  }

  @Override
  public void scatter(TensorImpl dst, long[] offsets, TensorImpl src) {
    JtNative.jt_index_scatter(dst.dataAddress(), dst.dtype().itemSize(), offsets, src.dataAddress(), offsets.length);
  }

  @Override
  public boolean hasElementwise(String op, DType dtype) {
    return CpuKernels.supports(op, dtype);
  }

  @Override
  public void elementwise(ElementwisePlan p) {
    int nops = p.tensors.length, ndim = p.shape.length;
    long[] plan = new long[4 + nops + ndim + nops * ndim + 8 + nops];
    plan[0] = CpuKernels.id(p.op);
    plan[1] = p.dtype.code();
    plan[2] = nops;
    plan[3] = ndim;
    int w = 4;
    for (int k = 0; k < nops; k++) plan[w++] = p.tensors[k] == null ? 0 : p.tensors[k].dataAddress();
    System.arraycopy(p.shape, 0, plan, w, ndim);
    w += ndim;
    for (int k = 0; k < nops; k++, w += ndim) {
      if (p.tensors[k] != null) System.arraycopy(p.strides[k], 0, plan, w, ndim);
    }
    double[] prm = p.params;
    for (int k = 0; k < prm.length; k++) {  // each as a double and as an exact long; unused ones stay 0
      plan[w + k] = Double.doubleToRawLongBits(prm[k]);
      plan[w + 4 + k] = (long) prm[k];
    }
    w += 8;
    System.arraycopy(p.scalarBits, 0, plan, w, nops);
    check(JtNative.jt_elementwise(plan), p.op, p.dtype);
  }

  @Override
  public void reduce(int op, TensorImpl out, TensorImpl values, TensorImpl in, long[] outStrides, boolean[] reduced, double scale) {
    int n = in.dim();
    long[] plan = new long[7 + 4 * n];
    plan[0] = op;
    plan[1] = in.dtype().code();
    plan[2] = n;
    plan[3] = out.dataAddress();
    plan[4] = in.dataAddress();
    plan[5] = values == null ? 0 : values.dataAddress();
    plan[6] = Double.doubleToRawLongBits(scale);
    System.arraycopy(in.sizes(), 0, plan, 7, n);
    System.arraycopy(outStrides, 0, plan, 7 + n, n);
    System.arraycopy(in.strides(), 0, plan, 7 + 2 * n, n);
    for (int d = 0; d < n; d++) plan[7 + 3 * n + d] = reduced[d] ? 1 : 0;
    check(JtNative.jt_reduce(plan), "reduction " + op, in.dtype());
  }

  @Override
  public void gemm(GemmCall g) {
    Blas.available();  // registers OpenBLAS on first use
    int bn = g.batchSizes.length;
    long[] plan = new long[16 + 4 * bn];
    plan[0] = g.a.dtype().code();
    plan[1] = g.m;
    plan[2] = g.n;
    plan[3] = g.k;
    plan[4] = g.a.dataAddress();
    plan[5] = g.b.dataAddress();
    plan[6] = g.c.dataAddress();
    plan[7] = g.aRow;
    plan[8] = g.aCol;
    plan[9] = g.bRow;
    plan[10] = g.bCol;
    plan[11] = g.cRow;
    plan[12] = g.cCol;
    plan[13] = Double.doubleToRawLongBits(g.alpha);
    plan[14] = Double.doubleToRawLongBits(g.beta);
    plan[15] = bn;
    System.arraycopy(g.batchSizes, 0, plan, 16, bn);
    System.arraycopy(g.aBatch, 0, plan, 16 + bn, bn);
    System.arraycopy(g.bBatch, 0, plan, 16 + 2 * bn, bn);
    System.arraycopy(g.cBatch, 0, plan, 16 + 3 * bn, bn);
    check(JtNative.jt_gemm(plan), "matmul", g.a.dtype());
  }

  @Override
  public void accumulate(TensorImpl dst, long[] offsets, TensorImpl src) {
    JtNative.jt_index_accumulate(dst.dataAddress(), dst.dtype().code(), offsets, src.dataAddress(), offsets.length);
  }

  @Override
  public void scan(boolean prod, int dim, TensorImpl out, TensorImpl in) {
    int n = in.dim();
    long[] plan = new long[6 + 3 * n];
    plan[0] = prod ? 1 : 0;
    plan[1] = in.dtype().code();
    plan[2] = n;
    plan[3] = dim;
    plan[4] = out.dataAddress();
    plan[5] = in.dataAddress();
    System.arraycopy(in.sizes(), 0, plan, 6, n);
    System.arraycopy(out.strides(), 0, plan, 6 + n, n);
    System.arraycopy(in.strides(), 0, plan, 6 + 2 * n, n);
    check(JtNative.jt_scan(plan), prod ? "cumprod" : "cumsum", in.dtype());
  }

  @Override
  public void copyBytes(StorageImpl dst, StorageImpl src, long nbytes) {
    JtNative.jt_memcpy(dst.data(), src.data(), nbytes);
  }

  /** A kernel's status (jt.h): -1 no kernel, 1 scratch memory refused, 2 any other native failure. */
  private static void check(int status, String op, DType dtype) {
    switch (status) {
      case 0: return;
      case -1: throw new UnsupportedOperationException(op + " has no CPU kernel for " + dtype);
      case 1: throw new TensorOutOfMemoryException("CPU", op, Memory.memoryStats(Device.CPU));
      default: throw new IllegalStateException(op + " failed in native code (status " + status + ") on " + dtype);
    }
  }
}
