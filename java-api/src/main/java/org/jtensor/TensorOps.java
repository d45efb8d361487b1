package org.jtensor;

/**
 * Tensor's elementwise operations, PyTorch's names in Java case. Kept apart from Tensor so each
 * file stays about one thing; every method here is inherited by {@link Tensor}. Java long, double
 * and boolean arguments act as Python int, float and bool scalars in type promotion.
 */
abstract class TensorOps extends TensorRandom {
  private static final double[] NONE = {};

  // ---- plumbing: one line per op below ----

  // name: the op as the user called it (errors say it); kernel: the elementwise kernel it runs.
  Tensor unary(String name, String kernel, OpKind kind, double... params) {
    return Tensor.wrap(ElementwiseOps.run(name, kernel, kind, null, params, Operand.of(impl(name))));
  }

  Tensor unary_(String name, String kernel, OpKind kind, double... params) {
    TensorImpl t = impl(name);
    ElementwiseOps.run(name, kernel, kind, t, params, Operand.of(t));
    return self();
  }

  Tensor binary(String name, String kernel, OpKind kind, Operand other, double... params) {
    return Tensor.wrap(ElementwiseOps.run(name, kernel, kind, null, params, Operand.of(impl(name)), other));
  }

  Tensor binary_(String name, String kernel, OpKind kind, Operand other, double... params) {
    TensorImpl t = impl(name);
    ElementwiseOps.run(name, kernel, kind, t, params, Operand.of(t), other);
    return self();
  }

  Tensor binaryOut(String name, String kernel, OpKind kind, Operand other, Tensor out, double... params) {
    ElementwiseOps.run(name, kernel, kind, out.impl(name), params, Operand.of(impl(name)), other);
    return out;
  }

  static Operand t(Tensor x, String op) {
    return Operand.of(x.impl(op));
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
  private Tensor rounding(String name, String kernel) {
    TensorImpl t = impl(name);
    if (!t.dtype().isFloatingPoint()) return Tensor.wrap(DataOps.cloneAs(t, t.dtype(), t.device(), false));
    return unary(name, kernel, OpKind.ARITH);
  }

  // ---- arithmetic ----
  public Tensor add(Tensor other) { return binary("add", "add", OpKind.ARITH, t(other, "add"), 1); }
  public Tensor add(Tensor other, double alpha) { Operand o = t(other, "add"); return binary("add", "add", OpKind.ARITH, o, alpha("add", o, alpha)); }
  public Tensor add(double v) { return binary("add", "add", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor add(long v) { return binary("add", "add", OpKind.ARITH, Operand.of(v), 1); }
  /** A Python bool scalar: promotes like True/False. */
  public Tensor add(boolean v) { return binary("add", "add", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor add_(Tensor other) { return binary_("add_", "add", OpKind.ARITH, t(other, "add_"), 1); }
  public Tensor add_(Tensor other, double alpha) { Operand o = t(other, "add_"); return binary_("add_", "add", OpKind.ARITH, o, alpha("add_", o, alpha)); }
  public Tensor add_(double v) { return binary_("add_", "add", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor add_(long v) { return binary_("add_", "add", OpKind.ARITH, Operand.of(v), 1); }
  /** torch.add(self, other, out=out): writes out (same shape as the broadcast) and returns it. */
  public Tensor addOut(Tensor other, Tensor out) { return binaryOut("addOut", "add", OpKind.ARITH, t(other, "addOut"), out, 1); }
  public Tensor sub(Tensor other) { return binary("sub", "sub", OpKind.ARITH, t(other, "sub"), 1); }
  public Tensor sub(Tensor other, double alpha) { Operand o = t(other, "sub"); return binary("sub", "sub", OpKind.ARITH, o, alpha("sub", o, alpha)); }
  public Tensor sub(double v) { return binary("sub", "sub", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor sub(long v) { return binary("sub", "sub", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor sub_(Tensor other) { return binary_("sub_", "sub", OpKind.ARITH, t(other, "sub_"), 1); }
  public Tensor sub_(double v) { return binary_("sub_", "sub", OpKind.ARITH, Operand.of(v), 1); }
  public Tensor subOut(Tensor other, Tensor out) { return binaryOut("subOut", "sub", OpKind.ARITH, t(other, "subOut"), out, 1); }
  public Tensor mul(Tensor other) { return binary("mul", "mul", OpKind.ARITH, t(other, "mul")); }
  public Tensor mul(double v) { return binary("mul", "mul", OpKind.ARITH, Operand.of(v)); }
  public Tensor mul(long v) { return binary("mul", "mul", OpKind.ARITH, Operand.of(v)); }
  public Tensor mul_(Tensor other) { return binary_("mul_", "mul", OpKind.ARITH, t(other, "mul_")); }
  public Tensor mul_(double v) { return binary_("mul_", "mul", OpKind.ARITH, Operand.of(v)); }
  public Tensor mulOut(Tensor other, Tensor out) { return binaryOut("mulOut", "mul", OpKind.ARITH, t(other, "mulOut"), out); }
  /** True division: integers divide as floats. */
  public Tensor div(Tensor other) { return binary("div", "div", OpKind.TO_FLOAT, t(other, "div")); }
  public Tensor div(double v) { return binary("div", "div", OpKind.TO_FLOAT, Operand.of(v)); }
  public Tensor div(long v) { return binary("div", "div", OpKind.TO_FLOAT, Operand.of(v)); }
  /** div with rounding_mode: null (true division), "trunc" or "floor". */
  public Tensor div(Tensor other, String roundingMode) { return binary("div", divOp(roundingMode), divKind(roundingMode), t(other, "div")); }
  public Tensor div(double v, String roundingMode) { return binary("div", divOp(roundingMode), divKind(roundingMode), Operand.of(v)); }
  public Tensor div_(Tensor other) { return binary_("div_", "div", OpKind.TO_FLOAT, t(other, "div_")); }
  public Tensor div_(double v) { return binary_("div_", "div", OpKind.TO_FLOAT, Operand.of(v)); }
  public Tensor divOut(Tensor other, Tensor out) { return binaryOut("divOut", "div", OpKind.TO_FLOAT, t(other, "divOut"), out); }
  public Tensor floorDivide(Tensor other) { return binary("floorDivide", "div_floor", OpKind.ARITH, t(other, "floorDivide")); }
  public Tensor floorDivide(long v) { return binary("floorDivide", "div_floor", OpKind.ARITH, Operand.of(v)); }
  public Tensor floorDivide(double v) { return binary("floorDivide", "div_floor", OpKind.ARITH, Operand.of(v)); }
  /** Python's %: the result has the divisor's sign. */
  public Tensor remainder(Tensor other) { return binary("remainder", "remainder", OpKind.ARITH, t(other, "remainder")); }
  public Tensor remainder(long v) { return binary("remainder", "remainder", OpKind.ARITH, Operand.of(v)); }
  public Tensor remainder(double v) { return binary("remainder", "remainder", OpKind.ARITH, Operand.of(v)); }
  public Tensor pow(Tensor exponent) { return binary("pow", "pow", OpKind.ARITH, t(exponent, "pow")); }
  public Tensor pow(double exponent) { return binary("pow", "pow", OpKind.ARITH, Operand.of(exponent)); }
  public Tensor pow(long exponent) {
    TensorImpl s = impl("pow");
    if (exponent < 0 && !s.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("pow(): Integers to negative integer powers are not allowed.");
    }
    return binary("pow", "pow", OpKind.ARITH, Operand.of(exponent));
  }
  public Tensor neg() { return unary("neg", "neg", OpKind.ARITH); }
  public Tensor neg_() { return unary_("neg_", "neg", OpKind.ARITH); }
  public Tensor abs() { return unary("abs", "abs", OpKind.ARITH); }
  public Tensor abs_() { return unary_("abs_", "abs", OpKind.ARITH); }
  public Tensor reciprocal() { return unary("reciprocal", "reciprocal", OpKind.TO_FLOAT); }
  public Tensor sign() { return unary("sign", "sign", OpKind.ARITH); }
  public Tensor maximum(Tensor other) { return binary("maximum", "maximum", OpKind.ARITH, t(other, "maximum")); }
  public Tensor minimum(Tensor other) { return binary("minimum", "minimum", OpKind.ARITH, t(other, "minimum")); }

  private static String divOp(String mode) {
    if (mode == null) return "div";
    switch (mode) {
      case "trunc": return "div_trunc";
      case "floor": return "div_floor";
      default: throw new IllegalArgumentException("div(): expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
    }
  }

  private static OpKind divKind(String mode) {
    return mode == null ? OpKind.TO_FLOAT : OpKind.ARITH;
  }

  // ---- comparisons and logic (to bool) ----
  public Tensor eq(Tensor o) { return binary("eq", "eq", OpKind.PREDICATE, t(o, "eq")); }
  public Tensor eq(double v) { return binary("eq", "eq", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor eq(long v) { return binary("eq", "eq", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor ne(Tensor o) { return binary("ne", "ne", OpKind.PREDICATE, t(o, "ne")); }
  public Tensor ne(double v) { return binary("ne", "ne", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor ne(long v) { return binary("ne", "ne", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor lt(Tensor o) { return binary("lt", "lt", OpKind.PREDICATE, t(o, "lt")); }
  public Tensor lt(double v) { return binary("lt", "lt", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor lt(long v) { return binary("lt", "lt", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor le(Tensor o) { return binary("le", "le", OpKind.PREDICATE, t(o, "le")); }
  public Tensor le(double v) { return binary("le", "le", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor le(long v) { return binary("le", "le", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor gt(Tensor o) { return binary("gt", "gt", OpKind.PREDICATE, t(o, "gt")); }
  public Tensor gt(double v) { return binary("gt", "gt", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor gt(long v) { return binary("gt", "gt", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor ge(Tensor o) { return binary("ge", "ge", OpKind.PREDICATE, t(o, "ge")); }
  public Tensor ge(double v) { return binary("ge", "ge", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor ge(long v) { return binary("ge", "ge", OpKind.PREDICATE, Operand.of(v)); }
  public Tensor logicalAnd(Tensor o) { return binary("logicalAnd", "logical_and", OpKind.PREDICATE, t(o, "logicalAnd")); }
  public Tensor logicalOr(Tensor o) { return binary("logicalOr", "logical_or", OpKind.PREDICATE, t(o, "logicalOr")); }
  public Tensor logicalXor(Tensor o) { return binary("logicalXor", "logical_xor", OpKind.PREDICATE, t(o, "logicalXor")); }
  public Tensor logicalNot() { return unary("logicalNot", "logical_not", OpKind.PREDICATE); }
  public Tensor isnan() { return unary("isnan", "isnan", OpKind.PREDICATE); }
  public Tensor bitwiseAnd(Tensor o) { return binary("bitwiseAnd", "bitwise_and", OpKind.ARITH, t(o, "bitwiseAnd")); }
  public Tensor bitwiseOr(Tensor o) { return binary("bitwiseOr", "bitwise_or", OpKind.ARITH, t(o, "bitwiseOr")); }
  public Tensor bitwiseXor(Tensor o) { return binary("bitwiseXor", "bitwise_xor", OpKind.ARITH, t(o, "bitwiseXor")); }
  public Tensor bitwiseAnd(long v) { return binary("bitwiseAnd", "bitwise_and", OpKind.ARITH, Operand.of(v)); }
  public Tensor bitwiseOr(long v) { return binary("bitwiseOr", "bitwise_or", OpKind.ARITH, Operand.of(v)); }
  public Tensor bitwiseXor(long v) { return binary("bitwiseXor", "bitwise_xor", OpKind.ARITH, Operand.of(v)); }
  public Tensor bitwiseNot() { return unary("bitwiseNot", "bitwise_not", OpKind.ARITH); }

  // ---- math (integers compute in the default float) ----
  public Tensor exp() { return unary("exp", "exp", OpKind.TO_FLOAT); }
  public Tensor exp_() { return unary_("exp_", "exp", OpKind.TO_FLOAT); }
  public Tensor exp2() { return unary("exp2", "exp2", OpKind.TO_FLOAT); }
  public Tensor log() { return unary("log", "log", OpKind.TO_FLOAT); }
  public Tensor log_() { return unary_("log_", "log", OpKind.TO_FLOAT); }
  public Tensor log2() { return unary("log2", "log2", OpKind.TO_FLOAT); }
  public Tensor log1p() { return unary("log1p", "log1p", OpKind.TO_FLOAT); }
  public Tensor expm1() { return unary("expm1", "expm1", OpKind.TO_FLOAT); }
  public Tensor sqrt() { return unary("sqrt", "sqrt", OpKind.TO_FLOAT); }
  public Tensor sqrt_() { return unary_("sqrt_", "sqrt", OpKind.TO_FLOAT); }
  public Tensor rsqrt() { return unary("rsqrt", "rsqrt", OpKind.TO_FLOAT); }
  public Tensor sin() { return unary("sin", "sin", OpKind.TO_FLOAT); }
  public Tensor cos() { return unary("cos", "cos", OpKind.TO_FLOAT); }
  public Tensor tan() { return unary("tan", "tan", OpKind.TO_FLOAT); }
  public Tensor tanh() { return unary("tanh", "tanh", OpKind.TO_FLOAT); }
  public Tensor tanh_() { return unary_("tanh_", "tanh", OpKind.TO_FLOAT); }
  public Tensor sigmoid() { return unary("sigmoid", "sigmoid", OpKind.TO_FLOAT); }
  public Tensor sigmoid_() { return unary_("sigmoid_", "sigmoid", OpKind.TO_FLOAT); }
  public Tensor erf() { return unary("erf", "erf", OpKind.TO_FLOAT); }
  public Tensor floor() { return rounding("floor", "floor"); }
  public Tensor ceil() { return rounding("ceil", "ceil"); }
  /** Rounds half to even, as torch.round. */
  public Tensor round() { return rounding("round", "round"); }
  public Tensor trunc() { return rounding("trunc", "trunc"); }

  // ---- activations ----
  public Tensor relu() { return unary("relu", "relu", OpKind.ARITH); }
  public Tensor relu_() { return unary_("relu_", "relu", OpKind.ARITH); }
  /** gelu with the exact erf form. */
  public Tensor gelu() { return unary("gelu", "gelu", OpKind.ARITH); }
  /** gelu(approximate): "none" (erf) or "tanh". */
  public Tensor gelu(String approximate) {
    switch (approximate) {
      case "none": return gelu();
      case "tanh": return unary("gelu", "gelu_tanh", OpKind.ARITH);
      default: throw new IllegalArgumentException("gelu(): approximate argument must be either none or tanh, got '" + approximate + "'");
    }
  }
  public Tensor silu() { return unary("silu", "silu", OpKind.ARITH); }
  public Tensor softplus() { return softplus(1.0, 20.0); }
  public Tensor softplus(double beta, double threshold) { return unary("softplus", "softplus", OpKind.ARITH, beta, threshold); }
  public Tensor leakyRelu(double negativeSlope) { return unary("leakyRelu", "leaky_relu", OpKind.ARITH, negativeSlope); }
  public Tensor leakyRelu() { return leakyRelu(0.01); }

  // ---- clamp, lerp ----
  /** clamp(min, max); a NaN bound is skipped (use clampMin/clampMax for one side). */
  public Tensor clamp(double min, double max) { return clampScalar("clamp", min, max); }
  public Tensor clampMin(double min) { return clampScalar("clampMin", min, Double.NaN); }
  public Tensor clampMax(double max) { return clampScalar("clampMax", Double.NaN, max); }
  public Tensor clamp_(double min, double max) {
    TensorImpl t = impl("clamp_");
    ElementwiseOps.run("clamp_", "clamp_scalar", OpKind.ARITH, t, bounds(min, max), Operand.of(t));
    return self();
  }
  /** clamp with tensor bounds, broadcast together with self. */
  public Tensor clamp(Tensor min, Tensor max) {
    return Tensor.wrap(ElementwiseOps.run("clamp", "clamp", OpKind.ARITH, null, NONE, Operand.of(impl("clamp")), t(min, "clamp"), t(max, "clamp")));
  }

  private Tensor clampScalar(String op, double min, double max) {
    TensorImpl t = impl(op);
    boolean floatBounds = (!Double.isNaN(min) && min != Math.rint(min)) || (!Double.isNaN(max) && max != Math.rint(max));
    Operand self = Operand.of(t);
    if (floatBounds && !t.dtype().isFloatingPoint()) {  // a float bound promotes an integer tensor
      TensorImpl f = DataOps.cloneAs(t, DType.DEFAULT_FLOAT, t.device(), false);
      try {
        return Tensor.wrap(ElementwiseOps.run(op, "clamp_scalar", OpKind.ARITH, null, bounds(min, max), Operand.of(f)));
      } finally {
        f.release();
      }
    }
    return Tensor.wrap(ElementwiseOps.run(op, "clamp_scalar", OpKind.ARITH, null, bounds(min, max), self));
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
    return Tensor.wrap(ElementwiseOps.run("lerp", "lerp", OpKind.ARITH, null, NONE, Operand.of(impl("lerp")), t(end, "lerp"), t(weight, "lerp")));
  }
}
