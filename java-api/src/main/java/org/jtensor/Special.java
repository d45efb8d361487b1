package org.jtensor;

import org.jtensor.dispatch.Op;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;

/**
 * torch.special's functions that have no Tensor method in PyTorch (i0e, i1, i1e, xlog1py), and
 * special.i0 and special.polygamma (Tensor.i0's and Tensor.polygamma's aliases). Integers and bool compute in the default float, as PyTorch's.
 */
public final class Special {
  private Special() {}

  /** I0(x), the modified Bessel function of the first kind of order 0 (torch.special.i0, x.i0()). */
  public static Tensor i0(Tensor x) { return unary(Ops.I0, x); }
  /** e^-|x| · I0(x), finite where I0 overflows. */
  public static Tensor i0e(Tensor x) { return unary(Ops.I0E, x); }
  /** I1(x), order 1 (odd). */
  public static Tensor i1(Tensor x) { return unary(Ops.I1, x); }
  /** e^-|x| · I1(x). */
  public static Tensor i1e(Tensor x) { return unary(Ops.I1E, x); }

  /** The n-th derivative of digamma (torch.special.polygamma, x.polygamma(n)). */
  public static Tensor polygamma(int n, Tensor x) {
    Tensor.implOf(x, "polygamma");  // a null or closed x refused as polygamma
    return x.polygamma(n);
  }

  /** x · log1p(y), 0 where x is 0 (even for y = -1) unless y is NaN. */
  public static Tensor xlog1py(Tensor x, Tensor y) {
    return Tensor.wrap(ElementwiseOps.run(Ops.XLOG1PY, "xlog1py", null, ElementwiseOps.NO_PARAMS,
        Operand.of(Tensor.implOf(x, "xlog1py")), Operand.of(Tensor.implOf(y, "xlog1py"))));
  }

  public static Tensor xlog1py(Tensor x, double y) {
    return Tensor.wrap(ElementwiseOps.run(Ops.XLOG1PY, "xlog1py", null, ElementwiseOps.NO_PARAMS,
        Operand.of(Tensor.implOf(x, "xlog1py")), Operand.of(y)));
  }

  public static Tensor xlog1py(double x, Tensor y) {
    return Tensor.wrap(ElementwiseOps.run(Ops.XLOG1PY, "xlog1py", null, ElementwiseOps.NO_PARAMS,
        Operand.of(x), Operand.of(Tensor.implOf(y, "xlog1py"))));
  }

  private static Tensor unary(Op op, Tensor x) {
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, ElementwiseOps.NO_PARAMS, Operand.of(Tensor.implOf(x, op.name))));
  }
}
