package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;

/**
 * PyTorch's documented aliases of the arithmetic and comparison ops (torch.multiply for mul,
 * torch.greater for gt, ...; fix is trunc's, beside it): each runs its op's registry entry under the name the user called, so
 * a refusal names the alias; the alpha and rounding-mode forms delegate. Inherited by {@link Tensor}.
 */
public sealed interface AliasMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  private Tensor as(String name, Op op, Operand other) {
    TensorImpl t = self().impl(name);
    return Tensor.wrap(ElementwiseOps.run(op, name, null, params(op), Operand.of(t), other));
  }

  private Tensor as_(String name, Op op, Operand other) {
    TensorImpl t = self().impl(name);
    ElementwiseOps.run(op, name, t, params(op), Operand.of(t), other);
    return self();
  }

  /** sub's kernel takes its alpha (1 here); the others take nothing. */
  private static double[] params(Op op) {
    return op == Ops.SUB ? new double[] {1} : ElementwiseOps.NO_PARAMS;
  }

  private static Operand t(Tensor x, String name) {
    return Operand.of(Tensor.implOf(x, name));
  }

  default Tensor multiply(Tensor other) { return as("multiply", Ops.MUL, t(other, "multiply")); }
  default Tensor multiply(double v) { return as("multiply", Ops.MUL, Operand.of(v)); }
  default Tensor multiply(long v) { return as("multiply", Ops.MUL, Operand.of(v)); }
  default Tensor multiply_(Tensor other) { return as_("multiply_", Ops.MUL, t(other, "multiply_")); }
  default Tensor multiply_(double v) { return as_("multiply_", Ops.MUL, Operand.of(v)); }
  default Tensor multiply_(long v) { return as_("multiply_", Ops.MUL, Operand.of(v)); }

  default Tensor divide(Tensor other) { return as("divide", Ops.DIV, t(other, "divide")); }
  default Tensor divide(double v) { return as("divide", Ops.DIV, Operand.of(v)); }
  default Tensor divide(long v) { return as("divide", Ops.DIV, Operand.of(v)); }
  /** divide with rounding_mode: null, "trunc" or "floor", as {@link Tensor#div(Tensor, String)}. */
  default Tensor divide(Tensor other, String roundingMode) { return as("divide", Ops.div("divide", roundingMode), t(other, "divide")); }
  default Tensor divide(double v, String roundingMode) { return as("divide", Ops.div("divide", roundingMode), Operand.of(v)); }
  default Tensor divide(long v, String roundingMode) { return as("divide", Ops.div("divide", roundingMode), Operand.of(v)); }
  default Tensor divide_(Tensor other) { return as_("divide_", Ops.DIV, t(other, "divide_")); }
  default Tensor divide_(double v) { return as_("divide_", Ops.DIV, Operand.of(v)); }
  default Tensor trueDivide_(Tensor other) { return as_("trueDivide_", Ops.DIV, t(other, "trueDivide_")); }
  default Tensor trueDivide_(double v) { return as_("trueDivide_", Ops.DIV, Operand.of(v)); }

  default Tensor subtract(Tensor other) { return as("subtract", Ops.SUB, t(other, "subtract")); }
  default Tensor subtract(double v) { return as("subtract", Ops.SUB, Operand.of(v)); }
  default Tensor subtract(long v) { return as("subtract", Ops.SUB, Operand.of(v)); }
  /** subtract with alpha: self − alpha·other, as {@link Tensor#sub(Tensor, double)}. */
  default Tensor subtract(Tensor other, double alpha) { return self().sub(other, alpha); }
  default Tensor subtract(Tensor other, long alpha) { return self().sub(other, alpha); }
  default Tensor subtract_(Tensor other) { return as_("subtract_", Ops.SUB, t(other, "subtract_")); }
  default Tensor subtract_(double v) { return as_("subtract_", Ops.SUB, Operand.of(v)); }
  default Tensor subtract_(long v) { return as_("subtract_", Ops.SUB, Operand.of(v)); }

  default Tensor greater(Tensor o) { return as("greater", Ops.GT, t(o, "greater")); }
  default Tensor greater(double v) { return as("greater", Ops.GT, Operand.of(v)); }
  default Tensor greater(long v) { return as("greater", Ops.GT, Operand.of(v)); }
  default Tensor greaterEqual(Tensor o) { return as("greaterEqual", Ops.GE, t(o, "greaterEqual")); }
  default Tensor greaterEqual(double v) { return as("greaterEqual", Ops.GE, Operand.of(v)); }
  default Tensor greaterEqual(long v) { return as("greaterEqual", Ops.GE, Operand.of(v)); }
  default Tensor less(Tensor o) { return as("less", Ops.LT, t(o, "less")); }
  default Tensor less(double v) { return as("less", Ops.LT, Operand.of(v)); }
  default Tensor less(long v) { return as("less", Ops.LT, Operand.of(v)); }
  default Tensor lessEqual(Tensor o) { return as("lessEqual", Ops.LE, t(o, "lessEqual")); }
  default Tensor lessEqual(double v) { return as("lessEqual", Ops.LE, Operand.of(v)); }
  default Tensor lessEqual(long v) { return as("lessEqual", Ops.LE, Operand.of(v)); }
  default Tensor notEqual(Tensor o) { return as("notEqual", Ops.NE, t(o, "notEqual")); }
  default Tensor notEqual(double v) { return as("notEqual", Ops.NE, Operand.of(v)); }
  default Tensor notEqual(long v) { return as("notEqual", Ops.NE, Operand.of(v)); }

  /** |self| (torch.absolute); bool refused, as abs. */
  default Tensor absolute() {
    TensorImpl t = self().impl("absolute");
    return Tensor.wrap(ElementwiseOps.run(Ops.ABS, "absolute", null, ElementwiseOps.NO_PARAMS, Operand.of(t)));
  }
  default Tensor absolute_() {
    TensorImpl t = self().impl("absolute_");
    ElementwiseOps.run(Ops.ABS, "absolute_", t, ElementwiseOps.NO_PARAMS, Operand.of(t));
    return self();
  }
}
