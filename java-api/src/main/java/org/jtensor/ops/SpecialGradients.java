package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.dispatch.Op;

/**
 * The derivatives of the Bessel functions, xlog1py, ldexp and frexp (PyTorch's derivatives.yaml and
 * its FunctionsManual's i1_backward/i1e_backward), and the unary kernels they call. The formulas
 * live in {@link Ops}' entries; these are their longer terms.
 */
final class SpecialGradients {
  private SpecialGradients() {}

  /** op(x) through its kernel: a Bessel function that has no Tensor method (special.i1, ...). */
  static Tensor run(Op op, Tensor x) {
    return Handles.wrap(ElementwiseOps.run(op, op.name, null, ElementwiseOps.NO_PARAMS, Operand.of(Handles.implOf(x, op.name))));
  }

  /**
   * i1 and i1e: i0(x) − i1(x)/x (and, scaled, i0e(x) − i1e(x)·(sgn x + 1/x)), 0.5 where |x| is at most
   * the dtype's epsilon, as PyTorch's i1_backward and i1e_backward (x there taken as epsilon first).
   */
  static Tensor i1(Tensor g, Tensor x, Tensor result, boolean scaled) {
    double eps = epsilon(x.dtype());
    Tensor notTiny = x.abs().gt(eps);
    Tensor safe = Tensor.where(notTiny, x, eps);
    Tensor dx = scaled ? run(Ops.I0E, safe).sub(result.mul(safe.sgn().add(safe.reciprocal())))
        : run(Ops.I0, safe).sub(result.mul(safe.reciprocal()));
    return g.mul(Tensor.where(notTiny, dx, 0.5));
  }

  private static double epsilon(DType d) {
    switch (d) {
      case FLOAT64: return Math.ulp(1.0);
      case FLOAT16: return 0x1p-10;
      case BFLOAT16: return 0x1p-7;
      default: return Math.ulp(1.0f);
    }
  }

  /** xlog1py's self: xlog1py(g, other), 0 where self is 0 and other ≤ −1, as derivatives.yaml's. */
  static Tensor xlog1pySelf(Tensor g, Tensor self, Tensor other) {
    Tensor v = Handles.wrap(ElementwiseOps.run(Ops.XLOG1PY, "xlog1py", null, ElementwiseOps.NO_PARAMS,
        Operand.of(Handles.implOf(g, "xlog1py")), Operand.of(Handles.implOf(other, "xlog1py"))));
    return v.maskedFill(self.eq(0.0).logicalAnd(other.le(-1.0)), 0.0);
  }

  /**
   * ldexp's self: g · pow(2, other), as derivatives.yaml's. With an integer exponent PyTorch's pow(2, e)
   * is integer arithmetic in e's dtype: 0 for e below 0 or at least the width, the lowest value at
   * width - 1 (int8's 2^7 is -128). ldexp(1.5, -2)'s gradient is 0, not 0.25, in PyTorch 2.13: kept,
   * so that gradients agree with PyTorch's.
   */
  static Tensor ldexpSelf(Tensor g, Tensor other) {
    DType d = other.dtype();
    if (d.isFloatingPoint()) return g.mul(other.exp2());
    int bits = d == DType.BOOL ? 64 : 8 * d.itemSize();
    try (Tensor e = other.to(DType.FLOAT64)) {
      Tensor p = Tensor.where(e.lt(0.0).logicalOr(e.ge((double) bits)), 0.0, e.exp2());
      if (d != DType.UINT8 && d != DType.BOOL) p = Tensor.where(e.eq((double) (bits - 1)), p.neg(), p);
      return g.mul(p.to(g.dtype()));
    }
  }

  /** frexp's mantissa: g / 2^exponent. */
  static Tensor frexp(Tensor g, Tensor x) {
    return g.div(run(Ops.FREXP_EXPONENT, x.detach()).exp2());  // detached: the exponent is piecewise constant
  }
}
