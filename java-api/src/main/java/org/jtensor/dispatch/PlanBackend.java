package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.plan.CopyPacker;
import org.jtensor.dispatch.plan.ElementwisePacker;
import org.jtensor.dispatch.plan.FillPacker;
import org.jtensor.dispatch.plan.GemmPacker;
import org.jtensor.dispatch.plan.ReducePacker;

/**
 * What the CPU and CUDA backends share: the same plans, packed and held the same way; each runs
 * them on its own kernels (run*) and raises its own kernels' statuses (check).
 */
abstract class PlanBackend implements Backend {
  private final Device device;
  private final DeviceMemory memory;

  PlanBackend(Device device) {
    this.device = device;
    this.memory = DeviceMemory.of(device);
  }

  @Override
  public final Device device() {
    return device;
  }

  @Override
  public final DeviceMemory memory() {
    return memory;
  }

  abstract int runCopy(long[] plan);

  abstract int runFill(long[] plan);

  abstract int runElementwise(long[] plan);

  abstract int runReduce(long[] plan);

  abstract int runGemm(long[] plan);

  /** Runs g on a library instead of runGemm's kernel when this backend has one for it; false otherwise. */
  boolean gemmElsewhere(String op, GemmCall g, long a, long b, long c) {
    return false;
  }

  /** Raises a kernel's status (jt.h's jt_status) unless it is 0. */
  abstract void check(int status, String op, DType dtype);

  @Override
  public void copy(String op, TensorImpl dst, TensorImpl src) {
    long[] sizes = dst.sizes(), dstStrides = dst.strides(), srcStrides = src.strides();
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.output(dst, sizes, dstStrides), s = held.address(src, sizes, srcStrides);
      check(runCopy(CopyPacker.pack(d, dst.dtype(), s, src.dtype(), sizes, dstStrides, srcStrides)), op, dst.dtype());
    }
  }

  @Override
  public void fill(String op, TensorImpl dst, double value) {
    fill(op, dst, false, Double.doubleToRawLongBits(value));
  }

  @Override
  public void fill(String op, TensorImpl dst, long value) {
    fill(op, dst, true, value);
  }

  private void fill(String op, TensorImpl dst, boolean integral, long bits) {
    long[] sizes = dst.sizes(), strides = dst.strides();
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.output(dst, sizes, strides);
      check(runFill(FillPacker.pack(d, dst.dtype(), integral, bits, sizes, strides)), op, dst.dtype());
    }
  }

  @Override
  public void elementwise(ElementwisePlan p) {
    int nops = p.tensors.length;
    long[] plan = ElementwisePacker.pack(CpuKernels.id(p.op), p.dtype, p.tensors[0].dtype(), p.shape, p.params, p.strides,
        p.scalars);
    try (HeldOperands held = new HeldOperands(p.name)) {
      ElementwisePacker.setAddress(plan, 0, p.outputIsNew ? held.addressOfNew(p.tensors[0], p.shape, p.strides[0])
                                                          : held.output(p.tensors[0], p.shape, p.strides[0]));
      for (int k = 1; k < nops; k++) {
        TensorImpl t = p.tensors[k];
        if (t != null) ElementwisePacker.setAddress(plan, k, held.address(t, p.shape, p.strides[k]));
      }
      check(runElementwise(plan), p.name, p.dtype);
    }
  }

  @Override
  public void reduce(Op op, String name, TensorImpl out, TensorImpl values, TensorImpl in, long[] outStrides,
                     boolean[] reduced, double scale) {
    long[] sizes = in.sizes(), inStrides = in.strides();
    long[] outSizes = sizes.clone();  // out's geometry over in's dims: 1 where reduced
    for (int d = 0; d < sizes.length; d++) if (reduced[d]) outSizes[d] = 1;
    try (HeldOperands held = new HeldOperands(name)) {
      long o = held.output(out, outSizes, outStrides), i = held.address(in, sizes, inStrides);
      long v = values == null ? 0 : held.output(values, outSizes, outStrides);
      long[] plan = ReducePacker.pack(CpuKernels.id(op), in.dtype(), out.dtype(), o, i, v, scale, sizes, outStrides, inStrides, reduced);
      check(runReduce(plan), name, in.dtype());
    }
  }

  @Override
  public void gemm(String op, GemmCall g) {
    try (HeldOperands held = new HeldOperands(op)) {
      long a = held.address(g.a, matrixSizes(g, g.m, g.k), matrixStrides(g.aBatch, g.aRow, g.aCol));
      long b = held.address(g.b, matrixSizes(g, g.k, g.n), matrixStrides(g.bBatch, g.bRow, g.bCol));
      long c = held.output(g.c, matrixSizes(g, g.m, g.n), matrixStrides(g.cBatch, g.cRow, g.cCol));
      if (gemmElsewhere(op, g, a, b, c)) return;
      long[] plan = GemmPacker.pack(g.a.dtype(), g.c.dtype(), g.m, g.n, g.k, a, b, c,
          new GemmPacker.Matrices(g.aRow, g.aCol, g.bRow, g.bCol, g.cRow, g.cCol), g.alpha, g.beta,
          g.batchSizes, g.aBatch, g.bBatch, g.cBatch);
      check(runGemm(plan), op, g.a.dtype());
    }
  }

  /** The batch sizes followed by one matrix's rows and columns: the geometry the GEMM walks. */
  private static long[] matrixSizes(GemmCall g, long rows, long cols) {
    long[] s = java.util.Arrays.copyOf(g.batchSizes, g.batchSizes.length + 2);
    s[s.length - 2] = rows;
    s[s.length - 1] = cols;
    return s;
  }

  private static long[] matrixStrides(long[] batch, long row, long col) {
    long[] s = java.util.Arrays.copyOf(batch, batch.length + 2);
    s[s.length - 2] = row;
    s[s.length - 1] = col;
    return s;
  }
}
