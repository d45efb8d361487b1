package org.jtensor;

import org.jtensor.dispatch.Op;

/**
 * Tensor's elementwise operations, PyTorch's names in Java case. Kept apart from Tensor so each
 * file stays about one thing; every method here is inherited by {@link Tensor}. Java long, double
 * and boolean arguments act as Python int, float and bool scalars in type promotion.
 */
abstract class TensorOps extends TensorRandom {
  private static final double[] NONE = {};

  // ---- plumbing: one line per op below ----

  // Each op names its registry entry (Ops); in-place and out= variants take their names from it.
  Tensor unary(Op op, double... params) {
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, params, Operand.of(impl(op.name))));
  }

  Tensor unary_(Op op, double... params) {
    TensorImpl t = impl(op.inPlaceName);
    ElementwiseOps.run(op, op.inPlaceName, t, params, Operand.of(t));
    return self();
  }

  Tensor binary(Op op, Operand other, double... params) {
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, params, Operand.of(impl(op.name)), other));
  }

  Tensor binary_(Op op, Operand other, double... params) {
    TensorImpl t = impl(op.inPlaceName);
    ElementwiseOps.run(op, op.inPlaceName, t, params, Operand.of(t), other);
    return self();
  }

  Tensor binaryOut(Op op, Operand other, Tensor out, double... params) {
    ElementwiseOps.run(op, op.outName, Tensor.implOf(out, op.outName), params, Operand.of(impl(op.outName)), other);
    return out;
  }

  static Operand t(Tensor x, String op) {
    return Operand.of(Tensor.implOf(x, op));
  }

  /** PyTorch: alpha must be integral when the computation is. */
  private double alpha(String op, Operand other, double alpha) {
    if (alpha != Math.rint(alpha)) {
      TypePromotion p = TypePromotion.start().tensor(impl(op));
      other.promote(p);
      if (!p.result().isFloatingPoint()) {
        throw new IllegalArgumentException(op + "(): For integral input tensors, argument alpha must not be a floating point number.");
      }
    }
    return alpha;
  }

  /** Integer tensors have no fractional part: floor/ceil/round/trunc of them is a copy. */
  private Tensor rounding(Op op) {
    TensorImpl t = impl(op.name);
    if (!t.dtype().isFloatingPoint()) return Tensor.wrap(DataOps.cloneAs(t, t.dtype(), t.device(), false));
    return unary(op);
  }

  // ---- arithmetic ----
  public Tensor add(Tensor other) { return binary(Ops.ADD, t(other, "add"), 1); }
  public Tensor add(Tensor other, double alpha) { Operand o = t(other, "add"); return binary(Ops.ADD, o, alpha("add", o, alpha)); }
  public Tensor add(double v) { return binary(Ops.ADD, Operand.of(v), 1); }
  public Tensor add(long v) { return binary(Ops.ADD, Operand.of(v), 1); }
  /** A Python bool scalar: promotes like True/False. */
  public Tensor add(boolean v) { return binary(Ops.ADD, Operand.of(v), 1); }
  public Tensor add_(Tensor other) { return binary_(Ops.ADD, t(other, "add_"), 1); }
  public Tensor add_(Tensor other, double alpha) { Operand o = t(other, "add_"); return binary_(Ops.ADD, o, alpha("add_", o, alpha)); }
  public Tensor add_(double v) { return binary_(Ops.ADD, Operand.of(v), 1); }
  public Tensor add_(long v) { return binary_(Ops.ADD, Operand.of(v), 1); }
  /** torch.add(self, other, out=out): writes out (same shape as the broadcast) and returns it. */
  public Tensor addOut(Tensor other, Tensor out) { return binaryOut(Ops.ADD, t(other, "addOut"), out, 1); }
  public Tensor sub(Tensor other) { return binary(Ops.SUB, t(other, "sub"), 1); }
  public Tensor sub(Tensor other, double alpha) { Operand o = t(other, "sub"); return binary(Ops.SUB, o, alpha("sub", o, alpha)); }
  public Tensor sub(double v) { return binary(Ops.SUB, Operand.of(v), 1); }
  public Tensor sub(long v) { return binary(Ops.SUB, Operand.of(v), 1); }
  public Tensor sub_(Tensor other) { return binary_(Ops.SUB, t(other, "sub_"), 1); }
  public Tensor sub_(double v) { return binary_(Ops.SUB, Operand.of(v), 1); }
  public Tensor subOut(Tensor other, Tensor out) { return binaryOut(Ops.SUB, t(other, "subOut"), out, 1); }
  public Tensor mul(Tensor other) { return binary(Ops.MUL, t(other, "mul")); }
  public Tensor mul(double v) { return binary(Ops.MUL, Operand.of(v)); }
  public Tensor mul(long v) { return binary(Ops.MUL, Operand.of(v)); }
  public Tensor mul_(Tensor other) { return binary_(Ops.MUL, t(other, "mul_")); }
  public Tensor mul_(double v) { return binary_(Ops.MUL, Operand.of(v)); }
  public Tensor mulOut(Tensor other, Tensor out) { return binaryOut(Ops.MUL, t(other, "mulOut"), out); }
  /** True division: integers divide as floats. */
  public Tensor div(Tensor other) { return binary(Ops.DIV, t(other, "div")); }
  public Tensor div(double v) { return binary(Ops.DIV, Operand.of(v)); }
  public Tensor div(long v) { return binary(Ops.DIV, Operand.of(v)); }
  /** div with rounding_mode: null (true division), "trunc" or "floor". */
  public Tensor div(Tensor other, String roundingMode) { return binary(divOp(roundingMode), t(other, "div")); }
  public Tensor div(double v, String roundingMode) { return binary(divOp(roundingMode), Operand.of(v)); }
  public Tensor div_(Tensor other) { return binary_(Ops.DIV, t(other, "div_")); }
  public Tensor div_(double v) { return binary_(Ops.DIV, Operand.of(v)); }
  public Tensor divOut(Tensor other, Tensor out) { return binaryOut(Ops.DIV, t(other, "divOut"), out); }
  public Tensor floorDivide(Tensor other) { return binary(Ops.FLOOR_DIVIDE, t(other, "floorDivide")); }
  public Tensor floorDivide(long v) { return binary(Ops.FLOOR_DIVIDE, Operand.of(v)); }
  public Tensor floorDivide(double v) { return binary(Ops.FLOOR_DIVIDE, Operand.of(v)); }
  /** Python's %: the result has the divisor's sign. */
  public Tensor remainder(Tensor other) { return binary(Ops.REMAINDER, t(other, "remainder")); }
  public Tensor remainder(long v) { return binary(Ops.REMAINDER, Operand.of(v)); }
  public Tensor remainder(double v) { return binary(Ops.REMAINDER, Operand.of(v)); }
  public Tensor pow(Tensor exponent) { return binary(Ops.POW, t(exponent, "pow")); }
  public Tensor pow(double exponent) { return binary(Ops.POW, Operand.of(exponent)); }
  public Tensor pow(long exponent) {
    TensorImpl s = impl("pow");
    if (exponent < 0 && !s.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("pow(): Integers to negative integer powers are not allowed.");
    }
    return binary(Ops.POW, Operand.of(exponent));
  }
  public Tensor neg() { return unary(Ops.NEG); }
  public Tensor neg_() { return unary_(Ops.NEG); }
  public Tensor abs() { return unary(Ops.ABS); }
  public Tensor abs_() { return unary_(Ops.ABS); }
  public Tensor reciprocal() { return unary(Ops.RECIPROCAL); }
  public Tensor sign() { return unary(Ops.SIGN); }
  public Tensor maximum(Tensor other) { return binary(Ops.MAXIMUM, t(other, "maximum")); }
  public Tensor minimum(Tensor other) { return binary(Ops.MINIMUM, t(other, "minimum")); }

  private static Op divOp(String mode) {
    if (mode == null) return Ops.DIV;
    switch (mode) {
      case "trunc": return Ops.DIV_TRUNC;
      case "floor": return Ops.DIV_FLOOR;
      default: throw new IllegalArgumentException("div(): expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
    }
  }

  // ---- comparisons and logic (to bool) ----
  public Tensor eq(Tensor o) { return binary(Ops.EQ, t(o, "eq")); }
  public Tensor eq(double v) { return binary(Ops.EQ, Operand.of(v)); }
  public Tensor eq(long v) { return binary(Ops.EQ, Operand.of(v)); }
  public Tensor ne(Tensor o) { return binary(Ops.NE, t(o, "ne")); }
  public Tensor ne(double v) { return binary(Ops.NE, Operand.of(v)); }
  public Tensor ne(long v) { return binary(Ops.NE, Operand.of(v)); }
  public Tensor lt(Tensor o) { return binary(Ops.LT, t(o, "lt")); }
  public Tensor lt(double v) { return binary(Ops.LT, Operand.of(v)); }
  public Tensor lt(long v) { return binary(Ops.LT, Operand.of(v)); }
  public Tensor le(Tensor o) { return binary(Ops.LE, t(o, "le")); }
  public Tensor le(double v) { return binary(Ops.LE, Operand.of(v)); }
  public Tensor le(long v) { return binary(Ops.LE, Operand.of(v)); }
  public Tensor gt(Tensor o) { return binary(Ops.GT, t(o, "gt")); }
  public Tensor gt(double v) { return binary(Ops.GT, Operand.of(v)); }
  public Tensor gt(long v) { return binary(Ops.GT, Operand.of(v)); }
  public Tensor ge(Tensor o) { return binary(Ops.GE, t(o, "ge")); }
  public Tensor ge(double v) { return binary(Ops.GE, Operand.of(v)); }
  public Tensor ge(long v) { return binary(Ops.GE, Operand.of(v)); }
  public Tensor logicalAnd(Tensor o) { return binary(Ops.LOGICAL_AND, t(o, "logicalAnd")); }
  public Tensor logicalOr(Tensor o) { return binary(Ops.LOGICAL_OR, t(o, "logicalOr")); }
  public Tensor logicalXor(Tensor o) { return binary(Ops.LOGICAL_XOR, t(o, "logicalXor")); }
  public Tensor logicalNot() { return unary(Ops.LOGICAL_NOT); }
  public Tensor isnan() { return unary(Ops.ISNAN); }
  public Tensor bitwiseAnd(Tensor o) { return binary(Ops.BITWISE_AND, t(o, "bitwiseAnd")); }
  public Tensor bitwiseOr(Tensor o) { return binary(Ops.BITWISE_OR, t(o, "bitwiseOr")); }
  public Tensor bitwiseXor(Tensor o) { return binary(Ops.BITWISE_XOR, t(o, "bitwiseXor")); }
  public Tensor bitwiseAnd(long v) { return binary(Ops.BITWISE_AND, Operand.of(v)); }
  public Tensor bitwiseOr(long v) { return binary(Ops.BITWISE_OR, Operand.of(v)); }
  public Tensor bitwiseXor(long v) { return binary(Ops.BITWISE_XOR, Operand.of(v)); }
  public Tensor bitwiseNot() { return unary(Ops.BITWISE_NOT); }

  // ---- math (integers compute in the default float) ----
  public Tensor exp() { return unary(Ops.EXP); }
  public Tensor exp_() { return unary_(Ops.EXP); }
  public Tensor exp2() { return unary(Ops.EXP2); }
  public Tensor log() { return unary(Ops.LOG); }
  public Tensor log_() { return unary_(Ops.LOG); }
  public Tensor log2() { return unary(Ops.LOG2); }
  public Tensor log1p() { return unary(Ops.LOG1P); }
  public Tensor expm1() { return unary(Ops.EXPM1); }
  public Tensor sqrt() { return unary(Ops.SQRT); }
  public Tensor sqrt_() { return unary_(Ops.SQRT); }
  public Tensor rsqrt() { return unary(Ops.RSQRT); }
  public Tensor sin() { return unary(Ops.SIN); }
  public Tensor cos() { return unary(Ops.COS); }
  public Tensor tan() { return unary(Ops.TAN); }
  public Tensor tanh() { return unary(Ops.TANH); }
  public Tensor tanh_() { return unary_(Ops.TANH); }
  public Tensor sigmoid() { return unary(Ops.SIGMOID); }
  public Tensor sigmoid_() { return unary_(Ops.SIGMOID); }
  public Tensor erf() { return unary(Ops.ERF); }
  public Tensor floor() { return rounding(Ops.FLOOR); }
  public Tensor ceil() { return rounding(Ops.CEIL); }
  /** Rounds half to even, as torch.round. */
  public Tensor round() { return rounding(Ops.ROUND); }
  public Tensor trunc() { return rounding(Ops.TRUNC); }

  // ---- activations ----
  public Tensor relu() { return unary(Ops.RELU); }
  public Tensor relu_() { return unary_(Ops.RELU); }
  /** gelu with the exact erf form. */
  public Tensor gelu() { return unary(Ops.GELU); }
  /** gelu(approximate): "none" (erf) or "tanh". */
  public Tensor gelu(String approximate) {
    switch (approximate) {
      case "none": return gelu();
      case "tanh": return unary(Ops.GELU_TANH);
      default: throw new IllegalArgumentException("gelu(): approximate argument must be either none or tanh, got '" + approximate + "'");
    }
  }
  public Tensor silu() { return unary(Ops.SILU); }
  public Tensor softplus() { return softplus(1.0, 20.0); }
  public Tensor softplus(double beta, double threshold) { return unary(Ops.SOFTPLUS, beta, threshold); }
  public Tensor leakyRelu(double negativeSlope) { return unary(Ops.LEAKY_RELU, negativeSlope); }
  public Tensor leakyRelu() { return leakyRelu(0.01); }

  // ---- clamp, lerp ----
  /** clamp(min, max); a NaN bound is skipped (use clampMin/clampMax for one side). */
  public Tensor clamp(double min, double max) { return clampScalar(Ops.CLAMP, min, max); }
  public Tensor clampMin(double min) { return clampScalar(Ops.CLAMP_MIN, min, Double.NaN); }
  public Tensor clampMax(double max) { return clampScalar(Ops.CLAMP_MAX, Double.NaN, max); }
  public Tensor clamp_(double min, double max) {
    TensorImpl t = impl(Ops.CLAMP.inPlaceName);
    ElementwiseOps.run(Ops.CLAMP, Ops.CLAMP.inPlaceName, t, bounds(min, max), Operand.of(t));
    return self();
  }
  /** clamp with tensor bounds, broadcast together with self. */
  public Tensor clamp(Tensor min, Tensor max) {
    Op op = Ops.CLAMP_TENSORS;
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, NONE, Operand.of(impl(op.name)), t(min, op.name), t(max, op.name)));
  }

  private Tensor clampScalar(Op op, double min, double max) {
    TensorImpl t = impl(op.name);
    boolean floatBounds = (!Double.isNaN(min) && min != Math.rint(min)) || (!Double.isNaN(max) && max != Math.rint(max));
    Operand self = Operand.of(t);
    if (floatBounds && !t.dtype().isFloatingPoint()) {  // a float bound promotes an integer tensor
      TensorImpl f = DataOps.cloneAs(t, DType.DEFAULT_FLOAT, t.device(), false);
      try {
        return Tensor.wrap(ElementwiseOps.run(op, op.name, null, bounds(min, max), Operand.of(f)));
      } finally {
        f.release();
      }
    }
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, bounds(min, max), self));
  }

  private static double[] bounds(double min, double max) {
    return new double[] {Double.isNaN(min) ? 0 : min, Double.isNaN(max) ? 0 : max, Double.isNaN(min) ? 0 : 1, Double.isNaN(max) ? 0 : 1};
  }

  /** self + weight * (end - self). */
  public Tensor lerp(Tensor end, double weight) {
    TensorImpl s = impl("lerp");
    try (Tensor w = Tensor.full(new long[0], weight, s.dtype().isFloatingPoint() ? s.dtype() : DType.DEFAULT_FLOAT, s.device())) {
      return lerp(end, w);
    }
  }

  public Tensor lerp(Tensor end, Tensor weight) {
    Op op = Ops.LERP;
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, NONE, Operand.of(impl(op.name)), t(end, op.name), t(weight, op.name)));
  }
}
