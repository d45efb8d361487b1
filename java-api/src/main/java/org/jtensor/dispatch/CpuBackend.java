package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.bindings.JtNative;
import org.jtensor.dispatch.plan.IndexAdvancedPacker;
import org.jtensor.dispatch.plan.IndexAlongPacker;
import org.jtensor.dispatch.plan.NonzeroPacker;
import org.jtensor.dispatch.plan.RandomPacker;
import org.jtensor.dispatch.plan.ScanPacker;
import org.jtensor.dispatch.plan.SortPacker;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.StorageImpl;

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

  CpuBackend() {
    super(Device.CPU);
  }

  @Override
  public void arange(TensorImpl dst, long start, long step) {
    try (HeldOperands held = new HeldOperands("arange")) {
      JtNative.jt_arange(flat(held, dst), dst.dtype().code(), dst.numel(), 1, start, step);
    }
  }

  @Override
  public void arange(TensorImpl dst, double start, double step) {
    try (HeldOperands held = new HeldOperands("arange")) {
      JtNative.jt_arange(flat(held, dst), dst.dtype().code(), dst.numel(), 0,
          Double.doubleToRawLongBits(start), Double.doubleToRawLongBits(step));
    }
  }

  @Override
  public void linspace(TensorImpl dst, double start, double end) {
    try (HeldOperands held = new HeldOperands("linspace")) {
      JtNative.jt_linspace(flat(held, dst), dst.dtype().code(), dst.numel(), start, end);
    }
  }

  /** The address of a tensor the kernel writes as numel contiguous elements. */
  static long flat(HeldOperands held, TensorImpl t) {
    return held.output(t, new long[] {t.numel()}, UNIT);
  }

  private static final long[] UNIT = {1};

  @Override
  public double loadDouble(String op, TensorImpl t, long elementOffset) {
    try (HeldOperands held = new HeldOperands(op)) {
      return JtNative.jt_load_f64(held.elementAddress(t, elementOffset), t.dtype().code());
    }
  }

  @Override
  public long loadLong(String op, TensorImpl t, long elementOffset) {
    try (HeldOperands held = new HeldOperands(op)) {
      return JtNative.jt_load_i64(held.elementAddress(t, elementOffset), t.dtype().code());
    }
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, double value) {
    try (HeldOperands held = new HeldOperands(op)) {
      JtNative.jt_store_f64(held.outputElement(t, elementOffset), t.dtype().code(), value);
    }
  }

  @Override
  public void store(String op, TensorImpl t, long elementOffset, long value) {
    try (HeldOperands held = new HeldOperands(op)) {
      JtNative.jt_store_i64(held.outputElement(t, elementOffset), t.dtype().code(), value);
    }
  }

  @Override
  public void read(String op, TensorImpl t, Object array) {
    long n = t.numel() * t.dtype().itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.address(t, new long[] {t.numel()}, UNIT);
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
    long n = t.numel() * t.dtype().itemSize();
    checkArray(op, array, n);
    try (HeldOperands held = new HeldOperands(op)) {
      long addr = held.output(t, new long[] {t.numel()}, UNIT);
      if (array instanceof float[]) JtNative.jt_write_bytes(addr, (float[]) array, n);
      else if (array instanceof double[]) JtNative.jt_write_bytes(addr, (double[]) array, n);
      else if (array instanceof long[]) JtNative.jt_write_bytes(addr, (long[]) array, n);
      else if (array instanceof int[]) JtNative.jt_write_bytes(addr, (int[]) array, n);
      else if (array instanceof short[]) JtNative.jt_write_bytes(addr, (short[]) array, n);
      else JtNative.jt_write_bytes(addr, (byte[]) array, n);
    }
  }

  /** The Java array must be a primitive array holding exactly nbytes: JNI copies that many. */
  static void checkArray(String op, Object array, long nbytes) {
    int elem = array instanceof double[] || array instanceof long[] ? 8
        : array instanceof float[] || array instanceof int[] ? 4
        : array instanceof short[] ? 2 : array instanceof byte[] ? 1 : 0;
    if (elem == 0) throw new IllegalArgumentException(op + "(): unsupported array type " + array.getClass().getName());
    long have = (long) java.lang.reflect.Array.getLength(array) * elem;
    if (have != nbytes) {
      throw new IllegalArgumentException(op + "(): the array holds " + have + " bytes, the tensor " + nbytes);
    }
  }

  @Override
  public void indexAlong(IndexAlong c) {
    try (HeldOperands held = new HeldOperands(c.name)) {
      boolean gather = c.mode == IndexAlong.Mode.GATHER;  // which operand the kernel writes
      long self = gather ? held.address(c.self, c.selfSizes, c.selfStrides) : held.output(c.self, c.selfSizes, c.selfStrides);
      long index = held.address(c.index, c.shape, c.indexStrides);
      long other = c.otherIsNew ? held.addressOfNew(c.other, c.shape, c.otherStrides)
          : gather ? held.output(c.other, c.shape, c.otherStrides) : held.address(c.other, c.shape, c.otherStrides);
      long[] plan = IndexAlongPacker.pack(c.mode.code, c.self.dtype(), c.index.dtype(), c.dim, c.selfSizes[c.dim], c.shape,
          new IndexAlongPacker.Operands(self, c.selfStrides, index, c.indexStrides, other, c.otherStrides));
      long[] bad = new long[1];
      int status = JtNative.jt_index_along(plan, bad);
      if (status == 4) {
        throw new IndexOutOfBoundsException(c.name + "(): index " + bad[0] + " is out of bounds for dimension " + c.dim
            + " with size " + c.selfSizes[c.dim]);
      }
      check(status, c.name, c.self.dtype());
    }
  }

  @Override
  public void random(RandomDraw r) {
    try (HeldOperands held = new HeldOperands(r.name)) {
      long[] sizes = r.dst.sizes();
      long dst = held.output(r.dst, sizes, r.dst.strides());
      long p = r.p == null ? 0 : held.address(r.p, sizes, r.pStrides);
      long[] pStrides = r.p == null ? new long[sizes.length] : r.pStrides;
      long[] plan = RandomPacker.pack(r.kind.code, r.dst.dtype(), dst, r.key, r.counter, r.a, r.b, p, sizes, r.dst.strides(), pStrides);
      double[] bad = new double[1];
      int status = JtNative.jt_random(plan, bad);
      if (status == 5) {
        throw new IllegalArgumentException(r.name + "(): Expected p_in >= 0 && p_in <= 1 to be true, but got " + bad[0]);
      }
      check(status, r.name, r.dst.dtype());
    }
  }

  @Override
  public void indexAdvanced(IndexAdvanced c) {
    try (HeldOperands held = new HeldOperands(c.name)) {
      long self = c.put ? held.output(c.self, c.self.sizes(), c.self.strides()) : held.address(c.self, c.self.sizes(), c.self.strides());
      long other = c.otherIsNew ? held.addressOfNew(c.other, c.shape, c.otherStrides)
          : c.put ? held.address(c.other, c.shape, c.otherStrides) : held.output(c.other, c.shape, c.otherStrides);
      IndexAdvancedPacker.Index[] indices = new IndexAdvancedPacker.Index[c.indices.size()];
      for (int j = 0; j < indices.length; j++) {
        IndexAdvanced.Index x = c.indices.get(j);
        long data = held.address(x.tensor(), c.shape, x.strides());
        indices[j] = new IndexAdvancedPacker.Index(data, x.tensor().dtype(), c.self.sizes()[x.dim()], c.self.strides()[x.dim()],
            x.strides());
      }
      long[] plan = IndexAdvancedPacker.pack(c.put, c.self.dtype(), c.shape, self, c.selfStrides, other, c.otherStrides, indices);
      long[] bad = new long[2];
      int status = JtNative.jt_index_advanced(plan, bad);
      if (status == 4) {
        int dim = c.indices.get((int) bad[1]).dim();
        throw new IndexOutOfBoundsException(c.name + "(): index " + bad[0] + " is out of bounds for dimension " + dim
            + " with size " + c.self.sizes()[dim]);
      }
      check(status, c.name, c.self.dtype());
    }
  }

  @Override
  public long countNonzero(String op, TensorImpl t) {
    return nonzero(op, t, null, 0);
  }

  @Override
  public long nonzero(String op, TensorImpl t, TensorImpl out) {
    return nonzero(op, t, out, out.sizes()[0]);
  }

  private long nonzero(String op, TensorImpl t, TensorImpl out, long rows) {
    try (HeldOperands held = new HeldOperands(op)) {
      long src = held.address(t, t.sizes(), t.strides());
      long dst = out == null ? 0 : held.addressOfNew(out, out.sizes(), out.strides());
      long[] found = new long[1];
      check(JtNative.jt_nonzero(NonzeroPacker.pack(t.dtype(), src, t.sizes(), t.strides(), dst, rows), found), op, t.dtype());
      return found[0];
    }
  }

  @Override
  public boolean hasElementwise(Op op, DType dtype) {
    return CpuKernels.supports(op, dtype);
  }

  @Override
  public void scan(Op op, int dim, TensorImpl out, TensorImpl in) {
    long[] sizes = in.sizes(), outStrides = out.strides(), inStrides = in.strides();
    try (HeldOperands held = new HeldOperands(op.name)) {
      long o = held.output(out, sizes, outStrides), i = held.address(in, sizes, inStrides);
      long[] plan = ScanPacker.pack(CpuKernels.id(op), in.dtype(), out.dtype(), dim, o, i, sizes, outStrides, inStrides);
      check(JtNative.jt_scan(plan), op.name, in.dtype());
    }
  }

  @Override
  public void sort(String op, int dim, boolean descending, TensorImpl values, TensorImpl indices, TensorImpl in) {
    long[] sizes = in.sizes();
    try (HeldOperands held = new HeldOperands(op)) {
      long v = held.output(values, sizes, values.strides()), x = held.output(indices, sizes, indices.strides());
      long i = held.address(in, sizes, in.strides());
      check(JtNative.jt_sort(SortPacker.pack(in.dtype(), dim, descending, v, x, i, sizes, values.strides(), indices.strides(),
          in.strides())), op, in.dtype());
    }
  }

  @Override
  public void copyBytes(String op, StorageImpl dst, StorageImpl src, long nbytes) {
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.outputStorage(dst, nbytes), s = held.storageAddress(src, nbytes);
      JtNative.jt_memcpy(d, s, nbytes);
    }
  }

  /** A kernel's status (jt.h): 1 scratch memory refused, 2 a plan native code refused, 3 no kernel (4 is the caller's). */
  @Override
  void check(int status, String op, DType dtype) {
    switch (status) {
      case 0: return;
      case 3: throw new UnsupportedOperationException(op + " has no CPU kernel for " + dtype);
      case 1: throw memory().outOfMemory(op);
      default: throw new IllegalStateException(op + " failed in native code (status " + status + ") on " + dtype);
    }
  }
}
