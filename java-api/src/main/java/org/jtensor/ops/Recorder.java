package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.autograd.Edge;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;

/**
 * Records an op into the graph (PyTorch's VariableType wrappers): before the kernel, {@link #begin}
 * makes the op's node with an edge per input and saves what its derivative needs (a copy of self
 * for an in-place op whose derivative reads self); after it, {@link Pending#finish} makes the node
 * the outputs' gradFn. Ops call it only when {@link #active} says a tensor input requires grad
 * and grad mode is on, so an op outside autograd pays one field read per input.
 */
public final class Recorder {
  private Recorder() {}

  private static final Runnable NO_KERNEL = () -> {};  // recorded(): the output is already made

  static boolean active(Operand[] in) {
    for (Operand o : in) if (o.tensor != null && o.tensor.requiresGrad()) return GradMode.isEnabled();
    return false;
  }

  public static boolean active(TensorImpl... in) {
    for (TensorImpl t : in) if (t != null && t.requiresGrad()) return GradMode.isEnabled();
    return false;
  }

  /** {@link #recorded(Op, String, TensorImpl[], Object, TensorImpl[], TensorImpl)} with no tensor saved besides the inputs. */
  public static TensorImpl recorded(Op op, String name, TensorImpl[] in, Object args, TensorImpl out) {
    return recorded(op, name, in, args, null, out);
  }

  /**
   * out, already made from in (a view, a copy, a product), recorded as op (args, and saved: tensor
   * arguments kept with the node) when autograd records and out is floating; out is released if
   * recording fails. The one place for ops whose node needs nothing saved before their kernel
   * runs, and for those whose node saves what the kernel wrote (sort's and max's positions).
   */
  static TensorImpl recorded(Op op, String name, TensorImpl[] in, Object args, TensorImpl[] saved, TensorImpl out) {
    if (!out.dtype().isFloatingPoint()) return out;
    if (!active(in)) return unrecordedView(out);
    return complete(() -> begin(op, name, in, null, args, saved, null), NO_KERNEL, out, out);
  }

  /** A view made with nothing recorded (grad mode off) takes no history its base has now (AutogradMeta.current). */
  static TensorImpl unrecordedView(TensorImpl out) {
    TensorImpl base = out.base();
    if (base != null && !GradMode.isEnabled()) out.setViewCreation(ViewCreation.unrecorded());
    AutogradMeta bm = base == null ? null : AutogradMeta.peek(base);
    if (bm != null && bm.rewroteViewsSince(null)) AutogradMeta.of(out).baseRebases = bm.rebases;
    return out;
  }

  /**
   * Runs kernel, which writes out from in, with op's node begun before it (saving in) and finished
   * on out after it, when autograd records; a failed kernel leaves no node. out stays the caller's.
   */
  static void runRecorded(Op op, String name, TensorImpl[] in, Object args, TensorImpl[] saved, TensorImpl out, Runnable kernel) {
    complete(active(in) ? begin(op, name, in, null, args, saved, null) : null, kernel, out, null);
  }

  /**
   * The one "run the kernel, then finish the node, else abort it" sequence: runs kernel, then
   * finishes rec (null when nothing records) on out and returns out. If the kernel or the finish
   * fails, rec is dropped, made (the output the op allocated, or null when the caller owns what
   * was written) is released, and the failure goes on.
   */
  public static TensorImpl complete(Pending rec, Runnable kernel, TensorImpl out, TensorImpl made) {
    return complete(() -> rec, kernel, out, made);
  }

  /**
   * The same for an op that allocated its output first: begin (which gives the node, or null when
   * nothing records) runs after the allocation, so a failed one leaves no half-made node holding
   * the inputs; its failure releases made too.
   */
  static TensorImpl complete(java.util.function.Supplier<Pending> begin, Runnable kernel, TensorImpl out, TensorImpl made) {
    Pending rec;
    try {
      rec = begin.get();
    } catch (RuntimeException e) {
      if (made != null) made.release();
      throw e;
    }
    try {
      kernel.run();
      if (rec != null) rec.finish(out);
      return out;
    } catch (RuntimeException e) {
      if (made != null) made.release();
      if (rec != null) rec.abort();
      throw e;
    }
  }

  /** out= variants are not differentiable, as in PyTorch. */
  static void refuseOut(String name) {
    throw new IllegalArgumentException(name + "(): functions with out=... arguments don't support automatic "
        + "differentiation, but one of the arguments requires grad.");
  }

  static Pending begin(Op op, String name, Operand[] in, double[] params, TensorImpl inPlace) {
    TensorImpl[] tensors = new TensorImpl[in.length];
    double[] scalars = new double[in.length];
    boolean[] isLong = new boolean[in.length];
    for (int k = 0; k < in.length; k++) {
      tensors[k] = in[k].tensor;
      if (in[k].tensor == null) {
        scalars[k] = in[k].kind == Operand.Kind.DOUBLE ? in[k].d : in[k].l;
        isLong[k] = in[k].kind != Operand.Kind.DOUBLE;
      }
    }
    return begin(op.name, (Gradient) op.derivative(), name, tensors, scalars, isLong, params, null, null, inPlace);
  }

  /**
   * op's node over in, before its kernel: params (scalar parameters), args (its family's NodeArgs
   * record, or null) and saved (tensor arguments its derivative reads, kept with the node: an
   * index, norm's statistics; null entries allowed) as its derivative reads them; inPlace is the
   * tensor an in-place op overwrites (null otherwise).
   */
  public static Pending begin(Op op, String name, TensorImpl[] in, double[] params, Object args, TensorImpl[] saved,
                              TensorImpl inPlace) {
    return begin(op.name, (Gradient) op.derivative(), name, in, null, null, params, args, saved, inPlace);
  }

  private static Pending begin(String opName, Gradient g, String name, TensorImpl[] in, double[] scalars, boolean[] isLong,
                               double[] params, Object args, TensorImpl[] saved, TensorImpl inPlace) {
    if (inPlace != null) checkInPlace(name, inPlace);
    Edge[] edges = new Edge[in.length];
    long[][] shapes = new long[in.length][];
    DType[] dtypes = new DType[in.length];
    Device[] devices = new Device[in.length];
    SavedTensor[] inputs = new SavedTensor[in.length];
    SavedTensor[] kept = saved == null ? null : new SavedTensor[saved.length];
    try {
      if (kept != null) {  // a tensor argument (an index, sort's positions) is saved with the node
        for (int i = 0; i < kept.length; i++) if (saved[i] != null) kept[i] = SavedTensor.input(name, saved[i]);
      }
      for (int k = 0; k < in.length; k++) {
        TensorImpl t = in[k];
        shapes[k] = t == null ? new long[0] : t.sizes().clone();
        dtypes[k] = t == null ? DType.FLOAT64 : t.dtype();
        devices[k] = t == null ? Device.CPU : t.device();
        if (t == null) continue;
        edges[k] = GraphNode.gradientEdge(t, name);
        if (g != null && (g.saves() & (1 << k)) != 0) inputs[k] = t == inPlace ? savedCopy(name, t) : SavedTensor.input(name, t);
      }
    } catch (RuntimeException e) {
      for (SavedTensor s : inputs) if (s != null) s.release();
      if (kept != null) for (SavedTensor s : kept) if (s != null) s.release();
      throw e;
    }
    OpNode node = new OpNode(opName, g, edges, inputs, scalars, isLong, params, args, kept, shapes, dtypes, devices, 1);
    return new Pending(node, g != null && (g.saves() & Gradient.RESULT) != 0, inPlace != null);
  }

  private static void checkInPlace(String name, TensorImpl self) {
    ViewCreation.checkInPlace(name, self);
    AutogradMeta m = AutogradMeta.peek(self);
    if (m != null && m.requiresGrad && m.isLeaf()) {
      throw new IllegalStateException(name + "(): a leaf Variable that requires grad is being used in an in-place operation.");
    }
    if (self.base() != null) {
      AutogradMeta b = AutogradMeta.peek(self.base());
      // PyTorch's check_inplace: the view requires grad and its base is a leaf (one that needs no
      // grad included: x = a.view(3, 4).requires_grad_(); x.t().add_(1)), or the base is a leaf that requires grad
      boolean baseIsLeaf = b == null || b.isLeaf();
      if ((b != null && b.requiresGrad && b.isLeaf()) || (m != null && m.requiresGrad && baseIsLeaf)) {
        throw new IllegalStateException(name + "(): a view of a leaf Variable that requires grad is being used in an in-place "
            + "operation.");
      }
      if (overlaps(self.base())) {
        throw new UnsupportedOperationException(name + "(): an in-place op on a view of a base whose elements overlap");
      }
    }
  }

  private static boolean overlaps(TensorImpl t) {
    for (long st : t.strides()) if (st == 0) return true;
    return false;
  }

  /** self as it is before an in-place op overwrites it. */
  private static SavedTensor savedCopy(String op, TensorImpl self) {
    TensorImpl copy = DataOps.cloneAs(op, self, self.dtype(), self.device(), false);
    try {
      return SavedTensor.input(op, copy);
    } finally {
      copy.release();
    }
  }

  /** A node made before its op's kernel: finish it with the outputs, or abort it if the kernel failed. */
  public static final class Pending {
    private final OpNode node;
    private final boolean savesResult;
    private final boolean inPlace;

    private Pending(OpNode node, boolean savesResult, boolean inPlace) {
      this.node = node;
      this.savesResult = savesResult;
      this.inPlace = inPlace;
    }

    /** out: the op's output (the in-place target for an in-place op); an integer or bool output records nothing. */
    void finish(TensorImpl out) {
      if (!out.dtype().isFloatingPoint()) {
        abort();
        return;
      }
      node.outputMeta(out.sizes(), out.dtype(), out.device());
      if (savesResult) node.saveResult(0, SavedTensor.output(out, 0));
      AutogradMeta m = AutogradMeta.of(out);
      AutogradMeta baseMeta = out.base() == null ? null : AutogradMeta.peek(out.base());
      GraphNode old = m.install(node, 0);  // the node's first owner
      if (baseMeta != null) m.baseRebases = baseMeta.rebases;  // current as of now
      if (old != null) old.releaseOwnership();  // the new node's edge holds it now
      if (out.base() != null && inPlace) {
        rebaseView(out, m);
      } else if (inPlace) {
        // The base itself has a new history: views made before now read it (PyTorch regenerates a
        // view's grad_fn whenever the version moved), or x.mul_(3) never reached x[:2]'s gradient.
        synchronized (m) {
          m.rebases++;
        }
      }
    }

    /**
     * An in-place op changed a view: its base's history becomes CopySlices (the op's node applied
     * to the view's slice of the base's gradient), and the view's own gradFn a strided view of that.
     */
    private void rebaseView(TensorImpl view, AutogradMeta vm) {
      TensorImpl base = view.base();
      Edge baseEdge = GraphNode.gradientEdge(base);
      GraphNode fn;
      synchronized (vm) {
        fn = vm.gradFn;  // the op's node, which finish just installed; CopySlices takes it over
        vm.gradFn = null;
      }
      CopySlices cs = new CopySlices(baseEdge, (OpNode) fn, base.sizes(), base.strides(), base.storageOffset(), view.sizes(),
          view.strides(), view.storageOffset(), base.dtype(), base.device());
      AutogradMeta bm = AutogradMeta.of(base);
      GraphNode oldBase;
      synchronized (bm) {
        oldBase = bm.install(cs, 0);
        bm.rebases++;
      }
      if (oldBase != null) oldBase.releaseOwnership();  // cs's edge holds it now
      regenerate(view, vm, bm);
    }

    void abort() {
      node.releaseOwnership();
    }
  }

  /** A view's gradFn as a strided view of its base's current history (AsStridedBackward). */
  static void regenerate(TensorImpl view, AutogradMeta vm, AutogradMeta bm) {
    TensorImpl base = view.base();
    Edge baseEdge = GraphNode.gradientEdge(base);
    OpNode node = new OpNode(Ops.AS_STRIDED.name, (Gradient) Ops.AS_STRIDED.derivative(), new Edge[] {baseEdge},
        new SavedTensor[1], null, null, null,
        new NodeArgs.Strided(base.strides().clone(), base.storageOffset(), view.strides().clone(), view.storageOffset()), null,
        new long[][] {base.sizes().clone()}, new DType[] {base.dtype()}, new Device[] {base.device()}, 1);
    node.outputMeta(view.sizes(), view.dtype(), view.device());
    GraphNode old;
    synchronized (vm) {
      old = vm.install(node, 0);
      vm.baseRebases = bm.rebases;
    }
    if (old != null) old.releaseOwnership();
  }
}
