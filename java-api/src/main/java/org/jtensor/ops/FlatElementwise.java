package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Backend;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.ElementwisePlan;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;

/**
 * The small-op path of {@link ElementwiseOps}: every tensor operand has the same sizes, dtype and
 * device and is contiguous, nothing records autograd, and the op computes and returns that dtype.
 * Then there is nothing to broadcast, promote, convert or check beyond what the kernel's holds
 * check, and the op is one flat run. Anything else (and every refusal) is left to the general
 * path, which gives the same result: this only skips work whose outcome is known.
 */
final class FlatElementwise {
  private FlatElementwise() {}

  /**
   * Runs op as ElementwiseOps.run would when the operands allow (out null, or out the first input:
   * an in-place op), returning the result (out itself when given); null when the general path must.
   */
  static TensorImpl tryRun(Op op, String name, TensorImpl out, double[] params, long[] exact, Operand[] in) {
    TensorImpl.Meta first = in[0].meta;
    if (first == null || !first.contiguous || first.numel == 0 || op.kind == OpKind.WHERE) return null;
    TensorImpl t0 = in[0].tensor;
    if (out != null && (out != t0 || !first.storage.isWritable())) return null;
    DType dtype = first.dtype;  // the snapshot's: the flat kernel reads first's storage as it
    if (op.kind.compute(dtype) != dtype || op.kind.result(dtype) != dtype) return null;
    if (!dtype.isFloatingPoint() && Ops.dividesIntegers(op)) return null;  // the general path checks for zero divisors
    Device device = first.storage.device();
    for (int k = 1; k < in.length; k++) {
      if (!takesFlat(in[k], first, dtype, device, out)) return null;
    }
    if (Recorder.active(in)) return null;
    Backend backend = Dispatcher.backend(device);
    if (device.isMeta() || !backend.hasElementwise(op, dtype)) return null;
    return run(backend, op, name, out, params, exact, in, first, dtype, device);
  }

  /**
   * Whether operand o fits the flat plan beside the first: a tensor like it (sizes, dtype, device,
   * contiguous) that out, when given, overlaps wholly or not at all; or a scalar of a floating op
   * (it takes the tensors' dtype, PyTorch's rule for a Python number beside a float tensor).
   */
  private static boolean takesFlat(Operand o, TensorImpl.Meta first, DType dtype, Device device, TensorImpl out) {
    if (!o.isTensor()) return dtype.isFloatingPoint();
    TensorImpl.Meta m = o.meta;
    if (!m.contiguous || m.dtype != dtype || (m.sizes != first.sizes && !Arrays.equals(m.sizes, first.sizes))) {
      return false;
    }
    if (m.storage != first.storage && !m.storage.device().equals(device)) return false;
    if (out == null || o.tensor == out) return true;
    DataOps.Overlap overlap = DataOps.overlap(first, dtype.itemSize(), m, dtype.itemSize());
    return overlap == DataOps.Overlap.NONE || overlap == DataOps.Overlap.FULL;  // PARTIAL: the general path refuses
  }

  private static TensorImpl run(Backend backend, Op op, String name, TensorImpl out, double[] params, long[] exact, Operand[] in,
                                TensorImpl.Meta first, DType dtype, Device device) {
    long numel = first.numel;
    TensorImpl dst = out != null ? out
        : DataOps.emptyOwned(name, first.sizes, Shapes.contiguousStrides(first.sizes), numel, dtype, device);
    try {
      ElementwisePlan plan = new ElementwisePlan(name, op, dtype, new long[] {numel}, in.length + 1, params, exact);
      plan.metas[0] = out != null ? first : dst.meta();
      plan.strides[0] = ElementwiseOps.FLAT;
      plan.outputIsNew = out == null;
      for (int k = 0; k < in.length; k++) {
        Operand o = in[k];
        if (o.isTensor()) {
          plan.metas[k + 1] = o.meta;
          plan.strides[k + 1] = ElementwiseOps.FLAT;
        } else {
          plan.setScalar(k + 1, ElementwiseOps.scalarDtype(dtype, op), o.d, o.l, o.kind != Operand.Kind.DOUBLE);
        }
      }
      backend.elementwise(plan);  // holds every operand and checks its bounds
    } catch (RuntimeException | Error e) {
      if (out == null) dst.release();
      throw e;
    }
    if (out != null) out.bumpVersion();
    return dst;
  }
}
