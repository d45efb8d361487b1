package org.jtensor.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.dispatch.Backend;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.ElementwisePlan;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/**
 * PyTorch's TensorIterator for elementwise ops: broadcasts the operands, promotes their dtypes,
 * allocates the output with PyTorch's stride rule (or checks a given one: in-place and out=),
 * converts inputs that differ from the computation dtype, and hands one plan to the Backend of
 * the operands' device.
 */
public final class ElementwiseOps {
  /** The params of an op that takes none. */
  public static final double[] NO_PARAMS = {};

  private ElementwiseOps() {}

  /**
   * The dtype a scalar operand reaches the kernel in. PyTorch's mul and div (true, trunc and floor,
   * floor_divide) of a float16/bfloat16 tensor read the scalar as given, in float32, the op's math
   * type (rounded to float16, 1e6 would be inf and 0 * 1e6 NaN; 2 // 1.0004 would be 2, not 1); its
   * other ops, add, sub and remainder among them, round it to the tensor's dtype first. So: float32
   * for those of a 16-bit float, on every device, the op's dtype otherwise.
   */
  static DType scalarDtype(DType want, Op op) {
    boolean readInMathType = op == Ops.MUL || op == Ops.DIV || op == Ops.DIV_TRUNC || op == Ops.DIV_FLOOR || op == Ops.FLOOR_DIVIDE;
    return readInMathType ? want.opMath() : want;
  }

  /**
   * Runs op, which the user called name (op.name, or its in-place or out= variant: errors say it).
   * With out null, returns a new result the caller owns; otherwise writes out (in-place or out=)
   * and returns it without adding a reference.
   */
  public static TensorImpl run(Op op, String name, TensorImpl out, double[] params, Operand... in) {
    return run(op, name, out, params, null, in);
  }

  /**
   * As above, with the params also as exact int64s (exact.length == params.length), which an
   * integer kernel reads: an int64 alpha or bound past 2^53 that a double would round.
   */
  public static TensorImpl run(Op op, String name, TensorImpl out, double[] params, long[] exact, Operand... in) {
    OpKind kind = op.kind;
    if (op == Ops.SUB || op == Ops.NEG) ElementwiseChecks.refuseBoolSubtraction(op, name, in);
    oneSnapshotPerTensor(in);
    TensorImpl quick = FlatElementwise.tryRun(op, name, out, params, exact, in);  // same-shape dense operands: the small-op path
    if (quick != null) return quick;
    Device device = device(name, out, in);
    long[] same = sameSizes(in);                   // the common case: nothing to broadcast
    long[] shape = same != null ? same : broadcastShape(name, in);
    TypePromotion promo = TypePromotion.start();
    for (int k = 0; k < in.length; k++) {
      if (kind != OpKind.WHERE || k > 0) in[k].promote(promo);
    }
    if (kind == OpKind.WHERE && in[0].tensor.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(name + "(): expected condition to be a bool tensor, but got a tensor with dtype "
          + in[0].tensor.dtype());
    }
    DType compute = kind.compute(promo.result());
    DType result = kind.result(compute);
    Backend backend = Dispatcher.backend(device);
    if (!backend.hasElementwise(op, compute)) {
      throw new UnsupportedOperationException(name + " has no " + device.type() + " kernel for " + compute);
    }
    TensorImpl.Meta outMeta = out == null ? null : snapshotOf(out, in);
    if (out != null) ElementwiseChecks.checkOut(name, out, outMeta, shape, result, in);
    long numel = Shapes.numel(name, shape);
    if (numel > 0 && !compute.isFloatingPoint() && !device.isMeta() && Ops.dividesIntegers(op)) ElementwiseChecks.checkNonzeroDivisor(name, in[1], compute);
    // Recorder.complete's sequence (begin, kernel, finish, else abort) written out: every small op
    // comes through here, and passing the kernel below as a lambda would allocate one per call.
    Recorder.Pending rec = null;                   // the op's graph node, when autograd records it
    if (Recorder.active(in) || (out != null && out.requiresGrad() && Recorder.active(out))) {
      if (out != null && name.equals(op.outName)) Recorder.refuseOut(name);
      if (result.isFloatingPoint()) rec = Recorder.begin(op, name, in, params, out);
    }
    List<TensorImpl> temps = null;                 // released whatever happens
    TensorImpl fresh = null;                       // the new result, released only on failure
    try {
      TensorImpl dst = out;
      TensorImpl.Meta dstMeta = outMeta;
      if (dst == null || dstMeta.dtype != result) {  // the snapshot's dtype: the kernel writes its storage as that
        long[] strides = outputStrides(shape, in);
        // Sizes shared with an input need no checks: that tensor already passed them.
        dst = same != null ? DataOps.emptyOwned(name, same, strides, numel, result, device)
                           : DataOps.emptyStrided(name, shape, strides, result, device);
        if (out != null) temps = add(temps, dst);
        else fresh = dst;
        dstMeta = dst.meta();  // the op's own: no other thread can re-point it
      }
      boolean flat = dstMeta.contiguous && allContiguous(same, in);
      ElementwisePlan plan = new ElementwisePlan(name, op, compute, flat ? new long[] {numel} : shape, in.length + 1, params, exact);
      plan.metas[0] = dstMeta;
      plan.strides[0] = flat ? FLAT : dstMeta.strides;
      plan.outputIsNew = dst != out;
      for (int k = 0; k < in.length; k++) {
        Operand o = in[k];
        DType want = kind == OpKind.WHERE && k == 0 ? DType.BOOL : compute;
        // a 0-dim CPU tensor reaches the kernel as a scalar would: off the CPU, and as the other operand
        // of mul and div of a 16-bit float, which PyTorch reads in float32 (in float16, 1e6 would be inf)
        DType scalarWant = k == 1 ? scalarDtype(want, op) : want;
        if (o.isTensor() && isCpuScalar(o) && (!device.isCpu() || scalarWant != want)) {
          setCpuScalar(name, plan, k + 1, scalarWant, o);
        } else if (o.isTensor()) {
          TensorImpl t = o.tensor;
          TensorImpl.Meta m = o.meta;
          if (m.dtype != want) {  // the snapshot's: the kernel reads m's storage as want
            t = DataOps.cloneAs(name, t, m, want, device, false);  // o's snapshot, converted
            temps = add(temps, t);
            m = t.meta();
          }
          plan.metas[k + 1] = m;
          plan.strides[k + 1] = flat ? FLAT : broadcastStrides(m, shape);
        } else {
          if (op == Ops.WHERE_OP) checkWhereScalar(name, want, o);
          plan.setScalar(k + 1, scalarDtype(want, op), o.d, o.l, o.kind != Operand.Kind.DOUBLE);
        }
      }
      if (numel > 0) backend.elementwise(plan);  // holds every operand and checks its bounds
      if (out == null) {
        if (rec != null) rec.finish(dst);
        rec = null;
        fresh = null;
        return dst;
      }
      if (dst != out) DataOps.copyInto(name, out, dst);
      else out.bumpVersion();
      if (rec != null) rec.finish(out);
      rec = null;
      return out;
    } finally {
      if (rec != null) rec.abort();
      if (temps != null) for (TensorImpl t : temps) t.release();
      if (fresh != null) fresh.release();
    }
  }

  /**
   * where's scalar becomes a tensor of the result dtype through PyTorch's checked fill: where(c, int8,
   * 300) is refused, not 44. A one-element 16-bit float fill skips its check, so float16 70000 is inf.
   */
  private static void checkWhereScalar(String name, DType want, Operand o) {
    if (want == DType.FLOAT16 || want == DType.BFLOAT16) return;
    if (o.kind == Operand.Kind.DOUBLE) want.checkFits(name, o.d);
    else if (o.kind == Operand.Kind.LONG) want.checkFits(name, o.l);
  }

  /** Operands of one tensor (x.mul(x)) read it through the first one's snapshot: the op sees one geometry of x. */
  private static void oneSnapshotPerTensor(Operand[] in) {
    if (in.length == 2 && in[1].tensor != in[0].tensor) return;  // the common binary case, kept small for the JIT
    for (int k = 1; k < in.length; k++) {
      if (!in[k].isTensor()) continue;
      for (int j = 0; j < k; j++) {
        if (in[j].tensor == in[k].tensor && in[j].meta != in[k].meta) {
          in[k] = in[k].withMeta(in[j].meta);
          break;
        }
      }
    }
  }

  /** out's snapshot: an input's own when out is that input (an in-place op), so the two agree. */
  private static TensorImpl.Meta snapshotOf(TensorImpl out, Operand[] in) {
    if (in[0].tensor == out) return in[0].meta;  // x.add_(y): the common in-place case
    for (Operand o : in) if (o.tensor == out) return o.meta;
    return out.meta();
  }

  /** The strides of every operand of a flattened plan: one dim, walked element by element. */
  static final long[] FLAT = {1};

  /** The sizes every tensor operand shares (an input's own array, not copied), or null. */
  private static long[] sameSizes(Operand[] in) {
    long[] s = null;
    for (Operand o : in) {
      if (!o.isTensor()) continue;
      long[] t = o.meta.sizes;
      if (s == null) s = t;
      else if (s != t && !Arrays.equals(s, t)) return null;
    }
    return s;
  }

  private static long[] broadcastShape(String op, Operand[] in) {
    long[] shape = new long[0];
    for (Operand o : in) if (o.isTensor()) shape = Shapes.broadcastShapes(op, shape, o.meta.sizes);
    return shape;
  }

  /** Whether every operand can be walked as one contiguous run (scalars have stride 0 anyway). */
  private static boolean allContiguous(long[] same, Operand[] in) {
    if (same == null) return false;
    for (Operand o : in) if (o.isTensor() && !o.meta.contiguous) return false;
    return true;
  }

  private static List<TensorImpl> add(List<TensorImpl> list, TensorImpl t) {
    List<TensorImpl> l = list == null ? new ArrayList<>(2) : list;
    l.add(t);
    return l;
  }

  /**
   * The op's device: its tensors' one device, where a 0-dim CPU tensor goes with any (PyTorch's rule:
   * it is read on the host and passed to the kernel as a scalar, see cpuScalar).
   */
  private static Device device(String op, TensorImpl out, Operand[] in) {
    Device d = out != null ? out.device() : null;
    for (Operand o : in) {
      if (!o.isTensor() || isCpuScalar(o)) continue;
      Device t = o.tensor.device();
      if (d == null) d = t;
      else Devices.requireSame(op, d, t);
    }
    return d == null ? Device.CPU : d;
  }

  private static boolean isCpuScalar(Operand o) {
    return o.meta.sizes.length == 0 && o.tensor.device().isCpu();
  }

  /** A 0-dim CPU tensor's value, set in the plan as a scalar operand of type want (its promotion was a tensor's). */
  private static void setCpuScalar(String name, ElementwisePlan plan, int k, DType want, Operand o) {
    TensorImpl held = o.tensor.frozen(name, o.meta);  // the snapshot the op promoted, whatever set_() does meanwhile
    try {
      Backend cpu = Dispatcher.backend(Device.CPU);
      if (o.tensor.dtype().isFloatingPoint()) {
        double v = cpu.loadDouble(name, held, 0);
        plan.setScalar(k, want, v, (long) v, false);
      } else {
        long v = cpu.loadLong(name, held, 0);
        plan.setScalar(k, want, v, v, true);
      }
    } finally {
      held.release();
    }
  }

  /** Strides of a tensor's snapshot m broadcast (right-aligned) to shape: 0 where it has size 1 or no dim. */
  static long[] broadcastStrides(TensorImpl.Meta m, long[] shape) {
    if (Arrays.equals(m.sizes, shape)) return m.strides;  // the common case: nothing broadcast
    int n = shape.length, tn = m.sizes.length;
    long[] st = new long[n];
    for (int i = 0; i < tn; i++) {
      int d = n - tn + i;
      st[d] = m.sizes[i] == 1 && shape[d] != 1 ? 0 : m.strides[i];
    }
    return st;
  }

  /**
   * The output's strides: the dim order of the inputs (PyTorch's reorder_dimensions: sort dims by
   * the strides of each input in turn, broadcast dims abstaining), made dense.
   */
  static long[] outputStrides(long[] shape, Operand[] in) {
    int n = shape.length;
    boolean allContiguous = true;
    for (Operand o : in) allContiguous &= !o.isTensor() || (o.meta.contiguous && o.meta.sizes.length == n);
    if (allContiguous || n <= 1) return Shapes.contiguousStrides(shape);
    List<long[]> strides = new ArrayList<>();
    for (Operand o : in) if (o.isTensor()) strides.add(broadcastStrides(o.meta, shape));
    return Shapes.denseStridesInOrder(shape, (d0, d1) -> compareDims(strides, shape, d0, d1));
  }

  private static int compareDims(List<long[]> strides, long[] shape, int d0, int d1) {
    for (long[] st : strides) {
      long s0 = st[d0], s1 = st[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape[d0] != shape[d1]) return shape[d0] > shape[d1] ? 1 : -1;
    }
    return 0;
  }
}
