package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.NodeArgs.Along;

import static org.jtensor.ops.Gradient.grads;

/** The scans beyond cumsum/cumprod (ReductionOps.scan): cummax, cummin, logcumsumexp, and their gradients. */
public final class ScanOps {
  private ScanOps() {}

  /**
   * cummax or cummin (op) along dim: the running extreme (in t's dtype) and where it is (int64), as
   * PyTorch 2.13's CPU kernel: the last of equal extremes, and a NaN, once seen, stays (the last NaN's index).
   * Returns {values (recorded for autograd), indices}.
   */
  public static TensorImpl[] cumExtreme(Op op, TensorImpl t, int dim) {
    String name = op.name;
    TensorImpl f = t.frozen(name);  // read through one snapshot; autograd records on t
    try {
      if (f.dim() == 0 && dim != 0 && dim != -1) {  // PyTorch's own words for a 0-dim input here, not wrapDim's
        throw new IllegalArgumentException(name + "(): Expected reduction dim -1 or 0 for scalar but got " + dim);
      }
      int d = Shapes.wrapDim(name, dim, f.dim());
      TensorImpl values = DataOps.emptyLike(name, f, f.dtype(), f.device());
      TensorImpl indices = ReductionOps.emptyOrRelease(name, values.sizes().clone(), DType.INT64, f.device(), values);
      try {
        if (f.dim() == 0) {
          DataOps.copyInto(name, values, f);
          DataOps.fill(name, indices, 0L);
        } else if (f.numel() > 0) {
          Dispatcher.backend(f.device()).scan(op, d, values, indices, f);
        }
      } catch (RuntimeException e) {
        values.release();
        indices.release();
        throw e;
      }
      return new TensorImpl[] {ReductionOps.recordedWith(op, name, t, new Along(d), values, indices), indices};
    } finally {
      f.release();
    }
  }

  /** logcumsumexp along dim: floating types only (PyTorch's refusal otherwise); float16/bfloat16 accumulate in float. */
  public static TensorImpl logcumsumexp(TensorImpl t, int dim) {
    if (!t.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented("logcumsumexp", "logcumsumexp_out_cpu", t.dtype());
    return ReductionOps.scan(Ops.LOGCUMSUMEXP, t, dim);
  }

  /**
   * cumsum/cumprod (name; scan runs it) with PyTorch's dtype argument: x converted to dtype first and
   * scanned there (float16/bfloat16 accumulate in float, integers wrap as in dtype); bool refused as PyTorch's kernel does.
   * From one floating dtype to another the gradient is PyTorch's: the upstream converted to x's dtype
   * first, then cumsum's or cumprod's backward there (differentiating through the conversion summed in dtype).
   */
  public static Tensor withDtype(Tensor x, String name, int dim, DType dtype, java.util.function.UnaryOperator<Tensor> scan) {
    if (dtype == null) return scan.apply(x);
    Shapes.wrapDim(name, dim, x.dim());  // PyTorch refuses a dim out of range before a bool dtype
    if (dtype == DType.BOOL) throw ScalarTypes.notImplemented(name, name + "_out_cpu", dtype);
    boolean ownGradient = x.dtype().isFloatingPoint() && dtype.isFloatingPoint() && dtype != x.dtype();
    TensorImpl value;
    try (org.jtensor.TensorScope s = org.jtensor.TensorScope.open()) {
      Tensor r = scan.apply((ownGradient ? x.detach() : x).to(dtype));  // integers come back int64: their wrapped sums and products narrow exactly
      if (!ownGradient) return s.keep(r.to(dtype));
      value = Handles.impl(r, name);
      value.retain();
    }
    int d = x.dim() == 0 ? 0 : Shapes.wrapDim(name, dim, x.dim());  // the scan has checked dim
    Op op = name.equals("cumsum") ? Ops.CUMSUM_DTYPE : Ops.CUMPROD_DTYPE;
    return Handles.wrap(Recorder.recorded(op, name, new TensorImpl[] {Handles.impl(x, name)}, new Along(d), value));
  }

  /** cumsum(dim, dtype)'s gradient: g in x's dtype, then reversed-summed there (PyTorch's cumsum_backward(grad.to(self's dtype))). */
  static Tensor[] cumsumDtypeBackward(Gradient.Context c, Tensor g) {
    return Gradient.cumsumBackward(c, g.to(c.inputDtype(0)));
  }

  /** cumprod(dim, dtype)'s gradient: PyTorch's cumprod_backward(grad.to(self's dtype), self, dim, result). */
  static Tensor[] cumprodDtypeBackward(Gradient.Context c, Tensor g) {
    return Gradient.cumprodBackward(c, g.to(c.inputDtype(0)));
  }

  /** cummax/cummin's gradient (PyTorch's cummaxmin_backward): g added into zeros at each output's index. */
  static Tensor[] cumExtremeBackward(Gradient.Context c, Tensor g) {
    long[] shape = c.inputShape(0);
    if (shape.length == 0) return grads(g.clone());
    return grads(Tensor.zeros(shape, g.dtype(), g.device()).scatterAdd(c.args(Along.class).dim(), c.savedArg(0), g));
  }

  /**
   * logcumsumexp's gradient as PyTorch's logcumsumexp_backward: the positive and negative parts of g
   * go through reversed logcumsumexps in log space (log|g| - result), so no exp overflows.
   */
  static Tensor[] logcumsumexpBackward(Gradient.Context c, Tensor g) {
    if (g.dim() == 0 || g.numel() == 0) return grads(g.clone());
    int dim = c.args(Along.class).dim();
    Tensor x = c.input(0), r = c.result();
    double lowest = -maxFinite(g.dtype());  // torch.finfo(dtype).min stands for log 0
    Tensor logAbs = g.abs().log();
    Tensor pos = Tensor.where(g.gt(0.0), logAbs, lowest), neg = Tensor.where(g.lt(0.0), logAbs, lowest);
    Tensor outPos = reverseLogcumsumexp(pos.sub(r), dim).add(x).exp();
    Tensor outNeg = reverseLogcumsumexp(neg.sub(r), dim).add(x).exp();
    return grads(outPos.sub(outNeg));
  }

  private static Tensor reverseLogcumsumexp(Tensor x, int dim) {
    return x.flip(dim).logcumsumexp(dim).flip(dim);
  }

  private static double maxFinite(DType t) {
    switch (t) {
      case FLOAT16: return 65504.0;
      case BFLOAT16: return 0x1.fep127;
      case FLOAT32: return Float.MAX_VALUE;
      default: return Double.MAX_VALUE;
    }
  }
}
