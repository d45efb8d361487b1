package org.jtensor;

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
final class Recorder {
  private Recorder() {}

  static boolean active(Operand[] in) {
    for (Operand o : in) if (o.tensor != null && o.tensor.requiresGrad()) return GradMode.isEnabled();
    return false;
  }

  static boolean active(TensorImpl... in) {
    for (TensorImpl t : in) if (t != null && t.requiresGrad()) return GradMode.isEnabled();
    return false;
  }

  /** A view or copy out of in, made without a kernel of its own: recorded as op at once. */
  static void recordView(Op op, TensorImpl in, TensorImpl out, Object[] args) {
    begin(op, op.name, new TensorImpl[] {in}, null, args, null).finish(out);
  }

  /** out= variants are not differentiable, as in PyTorch. */
  static void refuseOut(String name) {
    throw new IllegalArgumentException(name + "(): functions with out=... arguments don't support automatic "
        + "differentiation, but one of the arguments requires grad.");
  }

  static Pending begin(Op op, String name, Operand[] in, double[] params, Object[] args, TensorImpl inPlace) {
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
    return begin(op.name, (Gradient) op.derivative(), name, tensors, scalars, isLong, params, args, inPlace);
  }

  static Pending begin(Op op, String name, TensorImpl[] in, double[] params, Object[] args, TensorImpl inPlace) {
    return begin(op.name, (Gradient) op.derivative(), name, in, null, null, params, args, inPlace);
  }

  private static Pending begin(String opName, Gradient g, String name, TensorImpl[] in, double[] scalars, boolean[] isLong,
                               double[] params, Object[] args, TensorImpl inPlace) {
    if (inPlace != null) checkInPlace(name, inPlace);
    Edge[] edges = new Edge[in.length];
    long[][] shapes = new long[in.length][];
    DType[] dtypes = new DType[in.length];
    SavedTensor[] saved = new SavedTensor[in.length];
    try {
      for (int k = 0; k < in.length; k++) {
        TensorImpl t = in[k];
        shapes[k] = t == null ? new long[0] : t.sizes().clone();
        dtypes[k] = t == null ? DType.FLOAT64 : t.dtype();
        if (t == null) continue;
        edges[k] = GraphNode.gradientEdge(t);
        if (g != null && (g.saves() & (1 << k)) != 0) saved[k] = t == inPlace ? savedCopy(t) : SavedTensor.input(t);
      }
    } catch (RuntimeException e) {
      for (SavedTensor s : saved) if (s != null) s.release();
      throw e;
    }
    OpNode node = new OpNode(opName, g, edges, saved, scalars, isLong, params, args, shapes, dtypes, 1);
    return new Pending(node, g != null && (g.saves() & Gradient.RESULT) != 0);
  }

  private static void checkInPlace(String name, TensorImpl self) {
    AutogradMeta m = AutogradMeta.peek(self);
    if (m != null && m.requiresGrad && m.isLeaf()) {
      throw new IllegalStateException(name + "(): a leaf Variable that requires grad is being used in an in-place operation.");
    }
    if (self.base() != null) {
      throw new UnsupportedOperationException(name + "(): an in-place op on a view, with autograd recording, is not "
          + "supported yet; use the out-of-place op, or run it under GradMode.noGrad()");
    }
  }

  /** self as it is before an in-place op overwrites it. */
  private static SavedTensor savedCopy(TensorImpl self) {
    TensorImpl copy = DataOps.cloneAs(self, self.dtype(), self.device(), false);
    try {
      return SavedTensor.input(copy);
    } finally {
      copy.release();
    }
  }

  /** A node made before its op's kernel: finish it with the outputs, or abort it if the kernel failed. */
  static final class Pending {
    private final OpNode node;
    private final boolean savesResult;

    private Pending(OpNode node, boolean savesResult) {
      this.node = node;
      this.savesResult = savesResult;
    }

    /** out: the op's output (the in-place target for an in-place op); an integer or bool output records nothing. */
    void finish(TensorImpl out) {
      if (!out.dtype().isFloatingPoint()) {
        abort();
        return;
      }
      node.outputMeta(out.sizes(), out.dtype());
      if (savesResult) node.saveResult(0, SavedTensor.output(out, 0));
      AutogradMeta m = AutogradMeta.of(out);
      GraphNode old;
      synchronized (m) {
        old = m.gradFn;
        m.gradFn = node;  // the node's first owner
        m.outputNr = 0;
        m.requiresGrad = true;
      }
      if (old != null) old.releaseOwnership();  // the new node's edge holds it now
    }

    void abort() {
      node.releaseOwnership();
    }
  }
}
