package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;

/**
 * Tensor's trigonometric and hyperbolic functions, their inverses (with numpy's arc* aliases, as
 * PyTorch has them) and the degree/radian conversions. Integers and bool compute in the default
 * float (float32), as PyTorch's. Inherited by {@link Tensor}.
 */
public sealed interface TrigonometricMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor unary(Op op) {
    return unary(op, op.name);
  }

  /** op run under the name the user called (an alias's refusals name the alias). */
  private Tensor unary(Op op, String name) {
    return Tensor.wrap(ElementwiseOps.run(op, name, null, ElementwiseOps.NO_PARAMS, Operand.of(impl(name))));
  }

  private Tensor unary_(Op op) {
    TensorImpl t = impl(op.inPlaceName);
    ElementwiseOps.run(op, op.inPlaceName, t, ElementwiseOps.NO_PARAMS, Operand.of(t));
    return (Tensor) this;
  }

  default Tensor sin() { return unary(Ops.SIN); }
  default Tensor sin_() { return unary_(Ops.SIN); }
  default Tensor cos() { return unary(Ops.COS); }
  default Tensor cos_() { return unary_(Ops.COS); }
  default Tensor tan() { return unary(Ops.TAN); }
  default Tensor tan_() { return unary_(Ops.TAN); }
  default Tensor asin() { return unary(Ops.ASIN); }
  default Tensor acos() { return unary(Ops.ACOS); }
  default Tensor atan() { return unary(Ops.ATAN); }
  /** atan(self / other) in the quadrant of (other, self). */
  default Tensor atan2(Tensor other) { return atan2("atan2", other); }

  private Tensor atan2(String name, Tensor other) {
    return Tensor.wrap(ElementwiseOps.run(Ops.ATAN2, name, null, ElementwiseOps.NO_PARAMS, Operand.of(impl(name)),
        Operand.of(Tensor.implOf(other, name))));
  }
  default Tensor sinh() { return unary(Ops.SINH); }
  default Tensor cosh() { return unary(Ops.COSH); }
  default Tensor tanh() { return unary(Ops.TANH); }
  default Tensor tanh_() { return unary_(Ops.TANH); }
  default Tensor asinh() { return unary(Ops.ASINH); }
  /** NaN below 1. */
  default Tensor acosh() { return unary(Ops.ACOSH); }
  /** ±inf at ±1, NaN beyond. */
  default Tensor atanh() { return unary(Ops.ATANH); }

  default Tensor arcsin() { return unary(Ops.ASIN, "arcsin"); }
  default Tensor arccos() { return unary(Ops.ACOS, "arccos"); }
  default Tensor arctan() { return unary(Ops.ATAN, "arctan"); }
  default Tensor arctan2(Tensor other) { return atan2("arctan2", other); }
  default Tensor arcsinh() { return unary(Ops.ASINH, "arcsinh"); }
  default Tensor arccosh() { return unary(Ops.ACOSH, "arccosh"); }
  default Tensor arctanh() { return unary(Ops.ATANH, "arctanh"); }

  /** Degrees to radians: self · π/180 (integers and bool first to float32, as PyTorch's). */
  default Tensor deg2rad() { return scaled("deg2rad", Math.PI / 180); }
  /** Radians to degrees: self · 180/π. */
  default Tensor rad2deg() { return scaled("rad2deg", 180 / Math.PI); }

  private Tensor scaled(String op, double factor) {
    TensorImpl t = impl(op);
    Tensor self = (Tensor) this;
    if (t.dtype().isFloatingPoint()) return self.mul(factor);
    try (Tensor f = self.to(DType.FLOAT32)) {
      return f.mul(factor);
    }
  }
}
