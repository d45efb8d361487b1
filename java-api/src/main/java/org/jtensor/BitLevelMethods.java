package org.jtensor;

import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;
import org.jtensor.ops.ElementwiseChecks;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.TypePromotion;

/**
 * Ops on the representation of numbers, as PyTorch 2.13's: integer shifts (torch.bitwise_left_shift,
 * bitwise_right_shift), a float's mantissa and exponent (ldexp, frexp) and its neighbours (nextafter).
 * Inherited by {@link Tensor}.
 */
public sealed interface BitLevelMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /**
   * self shifted left by other's bits, in the promoted integer dtype; a count below 0 or at least the
   * dtype's width gives 0. Integers only: floats and bool refused, as PyTorch's.
   */
  default Tensor bitwiseLeftShift(Tensor other) { return shift(Ops.BITWISE_LEFT_SHIFT, "bitwiseLeftShift", false, other(other, "bitwiseLeftShift")); }
  /** Python int count: it takes self's dtype (wrapping), as PyTorch's. */
  default Tensor bitwiseLeftShift(long other) { return shift(Ops.BITWISE_LEFT_SHIFT, "bitwiseLeftShift", false, Operand.of(other)); }
  default Tensor bitwiseLeftShift_(Tensor other) { return shift(Ops.BITWISE_LEFT_SHIFT, "bitwiseLeftShift_", true, other(other, "bitwiseLeftShift_")); }
  default Tensor bitwiseLeftShift_(long other) { return shift(Ops.BITWISE_LEFT_SHIFT, "bitwiseLeftShift_", true, Operand.of(other)); }
  /** self shifted right (arithmetic: the sign fills); a count below 0 or at least the width leaves only the sign (-1 or 0). */
  default Tensor bitwiseRightShift(Tensor other) { return shift(Ops.BITWISE_RIGHT_SHIFT, "bitwiseRightShift", false, other(other, "bitwiseRightShift")); }
  default Tensor bitwiseRightShift(long other) { return shift(Ops.BITWISE_RIGHT_SHIFT, "bitwiseRightShift", false, Operand.of(other)); }
  default Tensor bitwiseRightShift_(Tensor other) { return shift(Ops.BITWISE_RIGHT_SHIFT, "bitwiseRightShift_", true, other(other, "bitwiseRightShift_")); }
  default Tensor bitwiseRightShift_(long other) { return shift(Ops.BITWISE_RIGHT_SHIFT, "bitwiseRightShift_", true, Operand.of(other)); }

  private static Operand other(Tensor t, String op) {
    return Operand.of(Tensor.implOf(t, op));
  }

  private Tensor shift(Op op, String name, boolean inPlace, Operand other) {
    TensorImpl t = impl(name);
    TypePromotion p = TypePromotion.start().tensor(t);
    other.promote(p);
    DType d = p.result();
    if (!d.isIntegral(false)) {  // PyTorch's kernels are "lshift" and "rshift"; an in-place write is checked first, as there
      if (inPlace) ElementwiseChecks.checkInPlaceTarget(name, Operand.of(t), other);
      String kernel = (op == Ops.BITWISE_LEFT_SHIFT ? "lshift" : "rshift") + (t.device().isCpu() ? "_cpu" : "_cuda");
      throw ScalarTypes.notImplemented(name, kernel, d);
    }
    TensorImpl r = ElementwiseOps.run(op, name, inPlace ? t : null, ElementwiseOps.NO_PARAMS, Operand.of(t), other);
    return inPlace ? self() : Tensor.wrap(r);
  }

  /**
   * self · 2^other in the promoted float dtype (integers and bool to float32). An integer exponent
   * scales exactly (1e-30f · 2^150 is finite) after wrapping to int32, as PyTorch's; a float one
   * multiplies by exp2(other). self's gradient is PyTorch's g · pow(2, other), which for an integer
   * exponent is integer arithmetic in other's dtype: 0 below 0 and from the width up, the lowest value at width - 1.
   */
  default Tensor ldexp(Tensor other) { return ldexp("ldexp", false, other); }
  /** In place: refused for an integer or bool self, whose result would be float. */
  default Tensor ldexp_(Tensor other) { return ldexp("ldexp_", true, other); }

  private Tensor ldexp(String name, boolean inPlace, Tensor other) {
    TensorImpl t = impl(name), e = Tensor.implOf(other, name);
    boolean integral = !e.dtype().isFloatingPoint();
    if (inPlace && !t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(name + "(): ldexp can't be cast to the desired output type " + ScalarTypes.name(t.dtype()));
    }
    double[] params = {integral ? 1 : 0};
    DType result = OpKind.TO_FLOAT.compute(TypePromotion.start().tensor(t).tensor(e).result());
    if (!integral || result.opMath() == result) {
      TensorImpl r = ElementwiseOps.run(Ops.LDEXP, name, inPlace ? t : null, params, Operand.of(t), Operand.of(e));
      return inPlace ? self() : Tensor.wrap(r);
    }
    // float16/bfloat16 would carry an integer exponent as a 16-bit float (bfloat16's 257 is 256): scaled in float32, then rounded
    try (TensorScope s = TensorScope.open()) {
      Tensor r = Tensor.wrap(ElementwiseOps.run(Ops.LDEXP, name, null, params, Operand.of(self().to(DType.FLOAT32).impl(name)), Operand.of(e))).to(result);
      if (!inPlace) return s.keep(r);
      self().copy_(r);
      return self();
    }
  }

  /**
   * self as mantissa · 2^exponent, the mantissa's magnitude in [0.5, 1) with self's dtype and the
   * exponent int32; ±0, inf and NaN give themselves and exponent 0. Floats only, as PyTorch's.
   * The mantissa carries the gradient (g / 2^exponent).
   */
  default Frexp frexp() {
    TensorImpl t = impl("frexp");
    if (!t.dtype().isFloatingPoint()) throw new IllegalArgumentException("frexp(): torch.frexp() only supports floating-point dtypes");
    try (TensorScope s = TensorScope.open()) {
      Tensor mantissa = Tensor.wrap(ElementwiseOps.run(Ops.FREXP_MANTISSA, "frexp", null, ElementwiseOps.NO_PARAMS, Operand.of(t)));
      Tensor exponent = Tensor.wrap(ElementwiseOps.run(Ops.FREXP_EXPONENT, "frexp", null, ElementwiseOps.NO_PARAMS,
          Operand.of(self().detach().impl("frexp")))).to(DType.INT32);  // detached: the exponent has no gradient
      return new Frexp(s.keep(mantissa), s.keep(exponent));
    }
  }

  /**
   * The next value after self toward other in the promoted float dtype (other itself where equal, so
   * nextafter(-0.0, 0.0) is 0.0; NaN where either is). Floats only, as PyTorch's; not differentiable.
   */
  default Tensor nextafter(Tensor other) { return nextafter("nextafter", false, other); }
  default Tensor nextafter_(Tensor other) { return nextafter("nextafter_", true, other); }

  private Tensor nextafter(String name, boolean inPlace, Tensor other) {
    TensorImpl t = impl(name), o = Tensor.implOf(other, name);
    DType d = TypePromotion.start().tensor(t).tensor(o).result();
    if (!d.isFloatingPoint()) throw ScalarTypes.notImplemented(name, "nextafter" + (t.device().isCpu() ? "_cpu" : "_cuda"), d);
    if (d.opMath() == d) {
      TensorImpl r = ElementwiseOps.run(Ops.NEXTAFTER, name, inPlace ? t : null, ElementwiseOps.NO_PARAMS, Operand.of(t), Operand.of(o));
      return inPlace ? self() : Tensor.wrap(r);
    }
    try (TensorScope s = TensorScope.open()) {  // float16/bfloat16: their float op math would step a float's ulp
      Tensor r = FloatNeighbours.nextafter16(self().to(d), other.to(d));
      if (!inPlace) return s.keep(r);
      self().copy_(r);
      return self();
    }
  }
}
