package org.jtensor.ops;

import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * torch.nn.functional.linear as one op: y = x·Wᵀ + b over x's leading dims, one GEMM writing onto
 * the broadcast bias (PyTorch's addmm), recorded as one node whose derivative (Ops.LINEAR) gives
 * W's gradient as gᵀ·x directly in W's layout.
 */
public final class LinearOp {
  private LinearOp() {}

  /** x, w and b each read through one snapshot (frozen views; one for a tensor passed twice); autograd records on them. */
  public static TensorImpl linear(TensorImpl x, TensorImpl w, TensorImpl b) {
    TensorImpl[] f = TensorImpl.frozen("linear", x, w, b);
    try {
      return linear(x, w, b, f[0], f[1], f[2]);
    } finally {
      TensorImpl.releaseFrozen(f);
    }
  }

  private static TensorImpl linear(TensorImpl ox, TensorImpl ow, TensorImpl ob, TensorImpl x, TensorImpl w, TensorImpl b) {
    String op = "linear";
    if (w.dim() != 2) throw new IllegalArgumentException(op + "(): weight must be 2-D here, got " + w.dim() + "-D");
    if (x.dim() < 1) {
      throw new IllegalArgumentException(op + "(): both arguments to linear need to be at least 1D, but they are 0D and " + w.dim() + "D");
    }
    long in = w.sizes()[1], out = w.sizes()[0];
    if (x.sizes()[x.dim() - 1] != in) {
      throw new IllegalArgumentException(op + "(): mat1 and mat2 shapes cannot be multiplied (" + LinalgOps.rowsOf(x) + "x"
          + x.sizes()[x.dim() - 1] + " and " + in + "x" + out + ")");
    }
    LinalgOps.checkDtypes(op, x, w);
    if (b != null && b.dtype() != w.dtype()) throw biasDtype(b, w);  // PyTorch's addmm refusal; it was converted silently
    long m = LinalgOps.rowsOf(x);
    if (b != null && b.dim() != 1) throw new IllegalArgumentException(op + "(): bias must be 1-D here, got " + Shapes.str(b.sizes()));
    if (b != null) LinalgOps.requireBroadcastsTo(op, b.sizes(), new long[] {m, out});  // [out] or [1], as PyTorch's addmm expands it
    long[] shape = x.sizes().clone();
    shape[shape.length - 1] = out;
    TensorImpl y = DataOps.empty("linear", shape, x.dtype(), x.device());
    TensorImpl[] inputs = ob == null ? new TensorImpl[] {ox, ow} : new TensorImpl[] {ox, ow, ob};  // autograd records on these
    // begun after the allocation (a failed one leaves no half-made node holding x and w), before grad mode goes off
    return Recorder.complete(() -> x.dtype().isFloatingPoint() && Recorder.active(inputs)
        ? Recorder.begin(Ops.LINEAR, op, inputs, null, null, null, null) : null, () -> {
      try (GradMode.Scope off = GradMode.noGrad(); TensorScope s = TensorScope.open()) {
        TensorImpl x2 = Handles.implOf(Handles.wrap(retained(x)).reshape(m, in), op);
        TensorImpl y2 = y.unsafeView(new long[] {m, out}, new long[] {out, 1}, 0);
        TensorImpl wt = ViewOps.t(w);
        try {
          if (b != null) DataOps.copyInto(op, y2, b);
          LinalgOps.gemm(op, x2, wt, y2, new long[0], m, out, in, 1.0, b == null ? 0.0 : 1.0);
        } finally {
          y2.release();
          wt.release();
        }
      }
    }, y, y);
  }

  /** PyTorch's words (addmm's) for a bias whose dtype is not the weight's. */
  public static IllegalArgumentException biasDtype(TensorImpl b, TensorImpl w) {
    return new IllegalArgumentException("linear(): self and mat2 must have the same dtype, but got " + b.dtype() + " and " + w.dtype());
  }

  private static TensorImpl retained(TensorImpl t) {
    t.retain();
    return t;
  }
}
