package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.Op;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.Shapes;

/** Reductions over a set of dims (all dims when the set is null or empty), PyTorch's dtype rules. */
public final class ReductionOps {
  private ReductionOps() {}

  private static final String NO_DIM_FOR_EMPTY = "Expected reduction dim to be specified for input.numel() == 0.";

  /** Which dims of t are reduced; dims null or empty means all of them. */
  static boolean[] reducedDims(String op, TensorImpl t, int[] dims) {
    return reducedDims(op, t.dim(), dims);
  }

  /** dims as PyTorch checks them (in range, none twice), refused naming op: for ops composed of a reduction under another name (nansum). */
  public static void checkDims(String op, int rank, int[] dims) {
    reducedDims(op, rank, dims);
  }

  private static boolean[] reducedDims(String op, int rank, int[] dims) {
    boolean[] r = new boolean[rank];
    if (dims == null || dims.length == 0) {
      Arrays.fill(r, true);
      return r;
    }
    boolean scalarSeen = false;  // a 0-dim tensor's dim 0 (or -1) may be named once, as PyTorch's
    for (int d : dims) {
      int w = Shapes.wrapDim(op, d, rank);
      if (rank == 0 && !scalarSeen) {
        scalarSeen = true;
        continue;
      }
      if (rank == 0 || r[w]) throw new IllegalArgumentException(op + "(): dim " + w + " appears multiple times in the list of dims");
      r[w] = true;
    }
    return r;
  }

  /** A reduction with no identity (amax, argmax, max along a dim) refuses an empty reduced dim, as PyTorch. */
  private static void requireNonEmptyReducedDims(String name, long[] sizes, boolean[] reduced) {
    for (int d = 0; d < reduced.length; d++) {
      if (reduced[d] && sizes[d] == 0) throw new IllegalArgumentException(name + "(): Expected reduction dim " + d + " to have non-zero size.");
    }
  }

  public static long[] outputShape(long[] sizes, boolean[] reduced, boolean keepdim) {
    int k = 0;
    for (int d = 0; d < reduced.length; d++) if (keepdim || !reduced[d]) k++;
    long[] s = new long[k];
    for (int d = 0, j = 0; d < reduced.length; d++) {
      if (!reduced[d]) s[j++] = sizes[d];
      else if (keepdim) s[j++] = 1;
    }
    return s;
  }

  /** out's strides laid over t's dims: out's own for kept dims, 0 for reduced ones. */
  static long[] stridesOverInput(TensorImpl out, boolean[] reduced, boolean keepdim) {
    long[] st = new long[reduced.length];
    for (int d = 0, j = 0; d < reduced.length; d++) {
      if (!reduced[d]) st[d] = out.strides()[j++];
      else if (keepdim) j++;
    }
    return st;
  }

  /** A value reduction, which the user called name; its result's dtype is the registry's rule for op. */
  public static TensorImpl reduce(Op op, String name, TensorImpl t, int[] dims, boolean keepdim, double divisor) {
    TensorImpl.Meta m = t.meta();  // one snapshot for the shapes and the kernel (Note [Metadata snapshot])
    boolean[] reduced = reducedDims(name, m.sizes.length, dims);
    if (op.reduceKind == org.jtensor.dispatch.ReduceKind.SAME && m.numel == 0) {  // amax, amin, max(), min(): no identity
      if (dims == null || dims.length == 0) throw new IllegalArgumentException(name + "(): " + NO_DIM_FOR_EMPTY + " Specify the reduction dim with the 'dim' argument.");
      requireNonEmptyReducedDims(name, m.sizes, reduced);
    }
    long[] shape = outputShape(m.sizes, reduced, keepdim);
    DType outType = op.reduceKind.out(t.dtype());
    TensorImpl out = DataOps.empty(name, shape, outType, t.device());
    return Recorder.complete(() -> outType.isFloatingPoint() && Recorder.active(t)
            ? Recorder.begin(op, name, new TensorImpl[] {t}, null, new NodeArgs.Reduced(reduced, keepdim, divisor), null, null) : null,
        () -> Dispatcher.backend(t.device()).reduce(op, name, out, null, t, m, stridesOverInput(out, reduced, keepdim), reduced, divisor),
        out, out);
  }

  /** A running reduction (cumsum, cumprod) along dim; its dtype is the registry's rule for op. */
  public static TensorImpl scan(Op op, TensorImpl t, int dim) {
    TensorImpl f = t.frozen(op.name);  // read through one snapshot; autograd records on t
    try {
      int d = Shapes.wrapDim(op.name, dim, f.dim());
      TensorImpl r = DataOps.emptyLike(op.name, f, op.reduceKind.out(f.dtype()), f.device());
      return alongDim(op, t, d, r, () -> {
        if (f.numel() > 0 && f.dim() > 0) Dispatcher.backend(f.device()).scan(op, d, r, null, f);
        else if (f.dim() == 0) DataOps.copyInto(op.name, r, f);
      });
    } finally {
      f.release();
    }
  }

  /** softmax or log_softmax (op) along dim in one kernel, in's shape and dtype; records the result for autograd. */
  public static TensorImpl softmax(Op op, TensorImpl t, int dim) {
    if (!t.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op.name + "(): expected a floating point tensor, got " + t.dtype());
    }
    TensorImpl f = t.frozen(op.name);  // read through one snapshot; autograd records on t
    try {
      int d = Shapes.wrapDim(op.name, dim, f.dim());
      TensorImpl r = DataOps.emptyLike(op.name, f, f.dtype(), f.device());
      return alongDim(op, t, d, r, () -> {
        if (f.numel() > 0) Dispatcher.backend(f.device()).softmax(op.name, op == Ops.LOG_SOFTMAX, d, r, f);
      });
    } finally {
      f.release();
    }
  }

  /** Runs kernel, which writes r from t along dim d, recording op (args: Along) when r is floating and t records. */
  private static TensorImpl alongDim(Op op, TensorImpl t, int d, TensorImpl r, Runnable kernel) {
    return Recorder.complete(() -> r.dtype().isFloatingPoint() && Recorder.active(t)
        ? Recorder.begin(op, op.name, new TensorImpl[] {t}, null, new NodeArgs.Along(d), null, null) : null, kernel, r, r);
  }

  /** A second output: when it cannot be allocated, the first (made) is released before the failure goes on. */
  static TensorImpl emptyOrRelease(String name, long[] shape, DType dtype, org.jtensor.Device device, TensorImpl first) {
    try {
      return DataOps.empty(name, shape, dtype, device);
    } catch (RuntimeException e) {
      first.release();
      throw e;
    }
  }

  /** torch.sort: values and int64 indices of t along dim (stable, NaN largest); values record the gather for autograd. */
  public static TensorImpl[] sort(String name, TensorImpl t, int dim, boolean descending) {
    TensorImpl f = t.frozen(name);  // read through one snapshot; autograd records on t
    try {
      return sorted(name, t, f, dim, descending);
    } finally {
      f.release();
    }
  }

  private static TensorImpl[] sorted(String name, TensorImpl t, TensorImpl f, int dim, boolean descending) {
    int d = Shapes.wrapDim(name, dim, f.dim());
    TensorImpl values = DataOps.empty(name, f.sizes().clone(), f.dtype(), f.device());
    TensorImpl indices = emptyOrRelease(name, f.sizes().clone(), DType.INT64, f.device(), values);
    try {
      if (f.dim() == 0) {
        DataOps.copyInto(name, values, f);
        DataOps.fill(name, indices, 0L);
      } else if (f.numel() > 0) {
        Dispatcher.backend(f.device()).sort(name, d, descending, values, indices, f);
      }
    } catch (RuntimeException e) {
      values.release();
      indices.release();
      throw e;
    }
    return new TensorImpl[] {recordedWith(Ops.SORT, name, t, new NodeArgs.Along(d), values, indices), indices};
  }

  /**
   * values recorded as op on t, the node saving indices: after the kernel, since the node saves
   * indices as the kernel left them (a fill bumps their version). On failure both are released.
   */
  static TensorImpl recordedWith(Op op, String name, TensorImpl t, Object args, TensorImpl values, TensorImpl indices) {
    try {
      return Recorder.recorded(op, name, new TensorImpl[] {t}, args, new TensorImpl[] {indices}, values);
    } catch (RuntimeException e) {
      indices.release();  // recorded released values
      throw e;
    }
  }

  /** argmax/argmin over one dim (or all, flattened, when dim is null), with the values when wanted. */
  public static TensorImpl[] argReduce(Op op, TensorImpl t, Integer dim, boolean keepdim, boolean withValues) {
    String name = op.name;
    TensorImpl.Meta m = t.meta();  // one snapshot for the shapes and the kernel
    int rank = m.sizes.length;
    boolean[] reduced = dim == null ? reducedDims(name, rank, null) : reducedDims(name, rank, new int[] {dim});
    if (m.numel == 0) {  // PyTorch refuses only an empty reduced dim; empty kept dims give an empty result
      if (dim == null) throw new IllegalArgumentException(name + "(): " + NO_DIM_FOR_EMPTY);
      requireNonEmptyReducedDims(name, m.sizes, reduced);
    }
    long[] shape = outputShape(m.sizes, reduced, keepdim && dim != null);  // keepdim is ignored without a dim
    TensorImpl idx = DataOps.empty(op.name, shape, op.reduceKind.out(t.dtype()), t.device());
    TensorImpl values = withValues ? emptyOrRelease(op.name, shape, t.dtype(), t.device(), idx) : null;
    try {
      long[] st = new long[rank];
      if (dim != null) st = stridesOverInput(idx, reduced, keepdim);
      if (m.numel > 0) Dispatcher.backend(t.device()).reduce(op, name, idx, values, t, m, st, reduced, 1.0);
    } catch (RuntimeException e) {
      idx.release();
      if (values != null) values.release();
      throw e;
    }
    if (values == null) return new TensorImpl[] {idx, null};
    // values gathered at the indices: the gradient goes back to those positions
    return new TensorImpl[] {idx, recordedWith(op, name, t, new NodeArgs.Reduced(reduced, keepdim && dim != null, 1.0), values, idx)};
  }

  /** The reduced dims as a list (every dim when dims is null or empty). */
  public static int[] dimsOrAll(TensorImpl t, int[] dims) {
    boolean[] r = reducedDims("reduce", t, dims);
    int k = 0;
    for (boolean b : r) if (b) k++;
    int[] out = new int[k];
    for (int d = 0, j = 0; d < r.length; d++) if (r[d]) out[j++] = d;
    return out;
  }

  public static long count(TensorImpl t, int[] dims) {
    boolean[] r = reducedDims("mean", t, dims);
    long n = 1;
    for (int d = 0; d < r.length; d++) if (r[d]) n *= t.sizes()[d];
    return n;
  }

}
