package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.plan.CopyPacker;
import org.jtensor.dispatch.plan.ElementwisePacker;
import org.jtensor.dispatch.plan.FillPacker;
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
}
