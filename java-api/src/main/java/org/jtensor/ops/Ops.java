package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.NativeContract;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;
import org.jtensor.dispatch.ReduceKind;
import org.jtensor.dispatch.plan.Windows;
import org.jtensor.ops.NodeArgs.Along;
import org.jtensor.ops.NodeArgs.Permute;
import org.jtensor.ops.NodeArgs.Transpose;

import static org.jtensor.dispatch.OpKind.ARITH;
import static org.jtensor.dispatch.OpKind.PREDICATE;
import static org.jtensor.dispatch.OpKind.TO_FLOAT;
import static org.jtensor.dispatch.OpKind.WHERE;
import static org.jtensor.ops.Gradient.OTHER;
import static org.jtensor.ops.Gradient.RESULT;
import static org.jtensor.ops.Gradient.SELF;
import static org.jtensor.ops.Gradient.THIRD;
import static org.jtensor.ops.Gradient.grads;
import static org.jtensor.ops.Gradient.of;
import static org.jtensor.ops.Gradient.oneMinus;

/**
 * The op registry: every op jtensor runs, stated once (name, kernel, arity, dtype rule) with its
 * derivative beside it (derivatives.yaml's entry: what backward saves, and the formula in Tensor
 * ops; see {@link Gradient}). An op without one records a node whose backward refuses. Tensor's methods name these entries; the native kernel tables
 * are checked against them when this class loads (see {@link NativeContract}), and a mismatch
 * stops the load with a message naming the op.
 */
public final class Ops {
  private Ops() {}

  /** Piecewise-constant ops (floor, rounding division): the gradient is zero everywhere it exists. */
  private static final Gradient ZERO = Gradient.ZERO;

  // ---- elementwise, unary ----
  public static final Op NEG = unary("neg", ARITH)
      .withDerivative(of(0, (c, g) -> grads(g.neg())));
  public static final Op ABS = unary("abs", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).sign()))));
  public static final Op SIGN = unary("sign", ARITH)
      .withDerivative(of(0, (c, g) -> grads(Tensor.zerosLike(g))));
  public static final Op RECIPROCAL = unary("reciprocal", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result().mul(c.result())).neg())));
  public static final Op EXP = unary("exp", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result()))));
  public static final Op EXP2 = unary("exp2", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result()).mul(Math.log(2)))));
  public static final Op LOG = unary("log", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.div(c.input(0)))));
  public static final Op LOG2 = unary("log2", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.div(c.input(0).mul(Math.log(2))))));
  public static final Op LOG1P = unary("log1p", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.div(c.input(0).add(1.0)))));
  public static final Op EXPM1 = unary("expm1", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result().add(1.0)))));
  public static final Op SQRT = unary("sqrt", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.div(c.result().mul(2.0)))));
  public static final Op RSQRT = unary("rsqrt", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result().pow(3.0)).mul(-0.5))));
  public static final Op SIN = unary("sin", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).cos()))));
  public static final Op COS = unary("cos", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).sin()).neg())));
  public static final Op TAN = unary("tan", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result().mul(c.result()).add(1.0)))));
  public static final Op ASIN = unary("asin", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(oneMinus(c.input(0).mul(c.input(0))).rsqrt()))));
  public static final Op ACOS = unary("acos", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(oneMinus(c.input(0).mul(c.input(0))).rsqrt()).neg())));
  public static final Op ATAN = unary("atan", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.div(c.input(0).mul(c.input(0)).add(1.0)))));
  public static final Op TANH = unary("tanh", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(oneMinus(c.result().mul(c.result()))))));
  public static final Op SIGMOID = unary("sigmoid", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result()).mul(oneMinus(c.result())))));
  public static final Op ERF = unary("erf", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).mul(c.input(0)).neg().exp()).mul(2 / Math.sqrt(Math.PI)))));
  public static final Op SINH = unary("sinh", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).cosh()))));
  public static final Op COSH = unary("cosh", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).sinh()))));
  public static final Op ASINH = unary("asinh", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).mul(c.input(0)).add(1.0).rsqrt()))));
  public static final Op ACOSH = unary("acosh", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).mul(c.input(0)).sub(1.0).rsqrt()))));
  public static final Op ATANH = unary("atanh", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(oneMinus(c.input(0).mul(c.input(0))).reciprocal()))));
  public static final Op LOG10 = unary("log10", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.div(c.input(0).mul(Math.log(10))))));
  public static final Op ERFC = unary("erfc", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).mul(c.input(0)).neg().exp()).mul(-2 / Math.sqrt(Math.PI)))));
  // the modified Bessel functions of the first kind (torch.i0, torch.special.i0e/i1/i1e), derivatives.yaml's:
  // i0' = i1, i0e' = i1e − sgn(x)·i0e, and i1's and i1e's through SpecialGradients.i1
  public static final Op I0 = unary("i0", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(SpecialGradients.run(Ops.I1, c.input(0))))));
  public static final Op I0E = unary("i0e", TO_FLOAT)
      .withDerivative(of(SELF | RESULT, (c, g) -> grads(g.mul(SpecialGradients.run(Ops.I1E, c.input(0)).sub(c.input(0).sgn().mul(c.result()))))));
  public static final Op I1 = unary("i1", TO_FLOAT)
      .withDerivative(of(SELF | RESULT, (c, g) -> grads(SpecialGradients.i1(g, c.input(0), c.result(), false))));
  public static final Op I1E = unary("i1e", TO_FLOAT)
      .withDerivative(of(SELF | RESULT, (c, g) -> grads(SpecialGradients.i1(g, c.input(0), c.result(), true))));
  // frexp's two results, a kernel each (floats only: Java refuses the rest); the exponent has no gradient
  public static final Op FREXP_MANTISSA = Op.elementwise("frexp", "frexp_mantissa", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(SpecialGradients.frexp(g, c.input(0)))));
  public static final Op FREXP_EXPONENT = Op.elementwise("frexp", "frexp_exponent", 1, ARITH);
  /** d/dy erfinv(y) = sqrt(pi)/2 * exp(erfinv(y)^2), read from the result as PyTorch's derivatives.yaml does. */
  public static final Op ERFINV = unary("erfinv", TO_FLOAT)
      .withDerivative(of(RESULT, (c, g) -> grads(g.mul(c.result().mul(c.result()).exp()).mul(Math.sqrt(Math.PI) / 2))));
  public static final Op FLOOR = unary("floor", ARITH)
      .withDerivative(ZERO);
  public static final Op CEIL = unary("ceil", ARITH)
      .withDerivative(ZERO);
  public static final Op ROUND = unary("round", ARITH)
      .withDerivative(ZERO);
  public static final Op TRUNC = unary("trunc", ARITH)
      .withDerivative(ZERO);
  public static final Op RELU = unary("relu", ARITH)
      .withDerivative(of(RESULT, (c, g) -> grads(Gradient.reluBackward(g, c.result()))));
  // relu's backward, one kernel (grad, result) -> grad where result > 0; its own derivative serves double backward
  static final Op RELU_BACKWARD = Op.elementwise("reluBackward", "relu_backward", 2, ARITH)
      .withDerivative(of(OTHER, (c, g) -> grads(c.needs(0) ? Gradient.reluBackward(g, c.input(1)) : null,
      c.needs(1) ? Tensor.zerosLike(g) : null)));
  public static final Op GELU = unary("gelu", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(Gradient.geluBackward(g, c.input(0)))));
  public static final Op GELU_TANH = Op.elementwise("gelu", "gelu_tanh", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(Gradient.geluTanhDerivative(c.input(0))))));
  // gelu's backward, one kernel (grad, x) -> grad * gelu'(x); its own derivative serves double backward
  static final Op GELU_BACKWARD = Op.elementwise("geluBackward", "gelu_backward", 2, ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? g.mul(Gradient.geluDerivative(c.input(1))) : null,
      c.needs(1) ? g.mul(c.input(0)).mul(Gradient.geluSecondDerivative(c.input(1))) : null)));
  public static final Op SILU = unary("silu", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(Gradient.siluDerivative(c.input(0))))));
  public static final Op SOFTPLUS = unary("softplus", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(Gradient.softplusDerivative(c.input(0), c.param(0), c.param(1))))));
  public static final Op LEAKY_RELU = Op.elementwise("leakyRelu", "leaky_relu", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(Tensor.where(c.input(0).gt(0.0), g, g.mul(c.param(0))))));
  // elu(alpha): x above 0, alpha (e^x - 1) else; below 0 the derivative is alpha e^x, taken from x as
  // PyTorch's (result + alpha cancels: elu(-20) rounds to -1 in float32, and the gradient to 0)
  public static final Op ELU = Op.elementwise("elu", "elu", 1, TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.elu(c, g))));
  // selu and celu: PyTorch's elu kernel with their (alpha, scale, input_scale)
  public static final Op SELU = Op.elementwise("selu", "elu", 1, TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.elu(c, g))));
  public static final Op CELU = Op.elementwise("celu", "elu", 1, TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.celu(c, g))));
  public static final Op HARDSWISH = unary("hardswish", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.hardswish(c.input(0), g))));
  public static final Op HARDSIGMOID = unary("hardsigmoid", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.hardsigmoid(c.input(0), g))));
  public static final Op MISH = unary("mish", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.mish(c.input(0), g))));
  public static final Op LOG_SIGMOID = Op.elementwise("logSigmoid", "log_sigmoid", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.logSigmoid(c.input(0), g))));
  public static final Op HARDSHRINK = unary("hardshrink", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.shrink(c.input(0), g, c.param(0)))));
  public static final Op SOFTSHRINK = unary("softshrink", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.shrink(c.input(0), g, c.param(0)))));
  public static final Op THRESHOLD = unary("threshold", ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.threshold(c.input(0), g, c.param(0)))));
  // hardtanh and relu6: clamp's kernel, the gradient 0 at the bounds too (clamp's passes there)
  public static final Op HARDTANH = Op.elementwise("hardtanh", "clamp_scalar", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.hardtanh(c.input(0), g, c.param(0), c.param(1)))));
  public static final Op RELU6 = Op.elementwise("relu6", "clamp_scalar", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.hardtanh(c.input(0), g, c.param(0), c.param(1)))));
  public static final Op FRAC = unary("frac", ARITH)
      .withDerivative(of(0, (c, g) -> grads(g)));
  public static final Op LGAMMA = unary("lgamma", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).digamma()))));
  public static final Op DIGAMMA = unary("digamma", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(Gradient.trigamma(c.input(0))))));
  static final Op TRIGAMMA = unary("trigamma", TO_FLOAT);  // digamma's derivative
  /** polygamma(n = param 0, x), the n-th derivative of digamma; its own derivative is polygamma(n + 1, x). */
  public static final Op POLYGAMMA = unary("polygamma", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).polygamma((int) c.param(0) + 1)))));
  public static final Op SINC = unary("sinc", TO_FLOAT)
      .withDerivative(of(SELF, (c, g) -> grads(ActivationGradients.sinc(c.input(0), g))));
  // nanToNum(nan, posinf, neginf): the derivative passes where the input is finite, as PyTorch's
  public static final Op NAN_TO_NUM = Op.elementwise("nanToNum", "nan_to_num", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).isfinite()))));
  // nansum's first step, NaN to 0 (params 0, inf, -inf): PyTorch's gradient is g times not-NaN, so an
  // inf g (nanmean of an all-NaN row) gives NaN there, as where(isnan, 0, g) would not
  public static final Op NAN_TO_ZERO = Op.elementwise("nansum", "nan_to_num", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(g.mul(c.input(0).isnan().logicalNot()))));
  // clamp's gradient: g within the bounds, an exact 0 outside (selected, as PyTorch's: g times the mask made an infinite g NaN)
  public static final Op CLAMP = Op.elementwise("clamp", "clamp_scalar", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(Tensor.where(Gradient.inBounds(c.input(0), c.param(0), c.param(1), c.param(2) != 0, c.param(3) != 0), g, 0.0))));
  public static final Op CLAMP_MIN = Op.elementwise("clampMin", "clamp_scalar", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(Tensor.where(Gradient.inBounds(c.input(0), c.param(0), c.param(1), c.param(2) != 0, c.param(3) != 0), g, 0.0))));
  public static final Op CLAMP_MAX = Op.elementwise("clampMax", "clamp_scalar", 1, ARITH)
      .withDerivative(of(SELF, (c, g) -> grads(Tensor.where(Gradient.inBounds(c.input(0), c.param(0), c.param(1), c.param(2) != 0, c.param(3) != 0), g, 0.0))));
  public static final Op BITWISE_NOT = Op.elementwise("bitwiseNot", "bitwise_not", 1, ARITH);
  public static final Op LOGICAL_NOT = Op.elementwise("logicalNot", "logical_not", 1, PREDICATE);
  public static final Op ISNAN = unary("isnan", PREDICATE);
  public static final Op ISINF = unary("isinf", PREDICATE);
  public static final Op ISFINITE = unary("isfinite", PREDICATE);
  public static final Op SIGNBIT = unary("signbit", PREDICATE);

  // ---- elementwise, binary ----
  public static final Op ADD = binary("add", ARITH)
      .withDerivative(of(0, (c, g) -> grads(g, c.param(0) == 1 ? g : g.mul(c.param(0)))));
  public static final Op SUB = binary("sub", ARITH)
      .withDerivative(of(0, (c, g) -> grads(g, g.mul(-c.param(0)))));
  public static final Op MUL = binary("mul", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? g.mul(c.input(1)) : null, c.needs(1) ? g.mul(c.input(0)) : null)));
  // other's: -grad · ((self / other) / other), PyTorch's order; self / other² overflowed other² (1e200)
  // to inf and gave 0, and softsign's two terms at 1e200 no longer cancelled
  public static final Op DIV = binary("div", TO_FLOAT)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? g.div(c.input(1)) : null,
      c.needs(1) ? g.neg().mul(c.input(0).div(c.input(1)).div(c.input(1))) : null)));
  public static final Op DIV_TRUNC = Op.elementwise("div", "div_trunc", 2, ARITH)
      .withDerivative(ZERO);
  public static final Op DIV_FLOOR = Op.elementwise("div", "div_floor", 2, ARITH)
      .withDerivative(ZERO);

  /** div's rounding_mode: null (true division), "trunc" or "floor"; any other refused in PyTorch's words, under op (div, divide). */
  public static Op div(String op, String mode) {
    if (mode == null) return DIV;
    switch (mode) {
      case "trunc": return DIV_TRUNC;
      case "floor": return DIV_FLOOR;
      default: throw new IllegalArgumentException(op + "(): expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
    }
  }
  public static final Op FLOOR_DIVIDE = Op.elementwise("floorDivide", "div_floor", 2, ARITH)
      .withDerivative(ZERO);
  public static final Op REMAINDER = binary("remainder", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(g, c.needs(1) ? g.mul(c.input(0).div(c.input(1), "floor")).neg() : null)));
  public static final Op POW = binary("pow", ARITH)
      .withDerivative(of(SELF | OTHER | RESULT, (c, g) -> grads(c.needs(0) ? Gradient.powSelf(g, c.input(0), c.input(1)) : null,
      c.needs(1) ? Gradient.powExponent(g, c.input(0), c.input(1), c.result()) : null)));
  public static final Op ATAN2 = binary("atan2", TO_FLOAT)
      .withDerivative(of(SELF | OTHER, (c, g) -> Gradient.atan2(g, c.input(0), c.input(1), c.needs(0), c.needs(1))));
  public static final Op HYPOT = binary("hypot", ARITH)
      .withDerivative(of(SELF | OTHER | RESULT, (c, g) -> grads(c.needs(0) ? g.mul(c.input(0)).div(c.result()) : null,
      c.needs(1) ? g.mul(c.input(1)).div(c.result()) : null)));
  public static final Op LOGADDEXP = binary("logaddexp", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? g.div(c.input(1).sub(c.input(0)).exp().add(1.0)) : null,
      c.needs(1) ? g.div(c.input(0).sub(c.input(1)).exp().add(1.0)) : null)));
  public static final Op LOGADDEXP2 = binary("logaddexp2", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? g.div(c.input(1).sub(c.input(0)).exp2().add(1.0)) : null,
      c.needs(1) ? g.div(c.input(0).sub(c.input(1)).exp2().add(1.0)) : null)));
  public static final Op XLOGY = binary("xlogy", TO_FLOAT)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? ActivationGradients.xlogySelf(c.input(0), c.input(1), g) : null,
      c.needs(1) ? g.mul(c.input(0)).div(c.input(1)) : null)));
  public static final Op COPYSIGN = binary("copysign", TO_FLOAT)
      .withDerivative(of(SELF | RESULT, (c, g) -> grads(c.needs(0) ? ActivationGradients.copysign(c.input(0), c.result(), g) : null,
      c.needs(1) ? Tensor.zerosLike(g) : null)));
  public static final Op FMOD = binary("fmod", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(g, c.needs(1) ? g.mul(c.input(0).div(c.input(1), "trunc")).neg() : null)));
  public static final Op HEAVISIDE = binary("heaviside", ARITH);  // not differentiable, as PyTorch's
  public static final Op MAXIMUM = binary("maximum", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> Gradient.maxMin(g, c.input(0), c.input(1), true)));
  public static final Op MINIMUM = binary("minimum", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> Gradient.maxMin(g, c.input(0), c.input(1), false)));
  // fmax/fmin: the gradient goes to the operand taken (self where self >= other or other is NaN), as derivatives.yaml's
  public static final Op FMAX = binary("fmax", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> Gradient.fmaxFmin(g, c.input(0), c.input(1), true, c.needs(0), c.needs(1))));
  public static final Op FMIN = binary("fmin", ARITH)
      .withDerivative(of(SELF | OTHER, (c, g) -> Gradient.fmaxFmin(g, c.input(0), c.input(1), false, c.needs(0), c.needs(1))));
  public static final Op GCD = binary("gcd", ARITH);  // integers only, not differentiable
  public static final Op LCM = binary("lcm", ARITH);
  public static final Op XLOG1PY = binary("xlog1py", TO_FLOAT)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? SpecialGradients.xlog1pySelf(g, c.input(0), c.input(1)) : null,
      c.needs(1) ? g.mul(c.input(0)).div(c.input(1).add(1.0)) : null)));
  // the shifts: integers only (Java refuses the rest); a count < 0 or >= the width shifts all out
  public static final Op BITWISE_LEFT_SHIFT = Op.elementwise("bitwiseLeftShift", "bitwise_left_shift", 2, ARITH);
  public static final Op BITWISE_RIGHT_SHIFT = Op.elementwise("bitwiseRightShift", "bitwise_right_shift", 2, ARITH);
  public static final Op NEXTAFTER = binary("nextafter", ARITH);  // not differentiable, as PyTorch's
  // ldexp: param 1 for an integer exponent (scaled exactly); self's gradient is PyTorch's g·pow(2, other)
  public static final Op LDEXP = binary("ldexp", TO_FLOAT)
      .withDerivative(of(SELF | OTHER, (c, g) -> grads(c.needs(0) ? SpecialGradients.ldexpSelf(g, c.input(1)) : null,
      c.needs(1) ? g.mul(c.input(0)).mul(c.input(1).exp2()).mul(Math.log(2)) : null)));
  public static final Op BITWISE_AND = Op.elementwise("bitwiseAnd", "bitwise_and", 2, ARITH);
  public static final Op BITWISE_OR = Op.elementwise("bitwiseOr", "bitwise_or", 2, ARITH);
  public static final Op BITWISE_XOR = Op.elementwise("bitwiseXor", "bitwise_xor", 2, ARITH);
  public static final Op EQ = binary("eq", PREDICATE);
  public static final Op NE = binary("ne", PREDICATE);
  public static final Op LT = binary("lt", PREDICATE);
  public static final Op LE = binary("le", PREDICATE);
  public static final Op GT = binary("gt", PREDICATE);
  public static final Op GE = binary("ge", PREDICATE);
  public static final Op LOGICAL_AND = Op.elementwise("logicalAnd", "logical_and", 2, PREDICATE);
  public static final Op LOGICAL_OR = Op.elementwise("logicalOr", "logical_or", 2, PREDICATE);
  public static final Op LOGICAL_XOR = Op.elementwise("logicalXor", "logical_xor", 2, PREDICATE);

  // ---- elementwise, ternary ----
  public static final Op LERP = Op.elementwise("lerp", "lerp", 3, ARITH)
      .withDerivative(of(SELF | OTHER | THIRD, (c, g) -> grads(c.needs(0) ? g.mul(oneMinus(c.input(2))) : null,
      c.needs(1) ? g.mul(c.input(2)) : null, c.needs(2) ? g.mul(c.input(1).sub(c.input(0))) : null)));
  public static final Op LERP_SCALAR = Op.elementwise("lerp", "lerp_scalar", 2, ARITH)
      .withDerivative(of(0, (c, g) -> grads(c.needs(0) ? g.mul(1 - c.param(0)) : null, c.needs(1) ? g.mul(c.param(0)) : null)));
  public static final Op CLAMP_TENSORS = Op.elementwise("clamp", "clamp", 3, ARITH)
      .withDerivative(of(SELF | OTHER | THIRD, (c, g) -> Gradient.clampTensors(c, g)));
  // The gradient is g where the input was taken and an exact 0 elsewhere (as PyTorch's where(c, g, 0)):
  // g times the mask would make an inf or NaN in g at an untaken position a NaN gradient.
  public static final Op WHERE_OP = Op.elementwise("where", "where", 3, WHERE)
      .withDerivative(of(SELF, (c, g) -> grads(null, c.needs(1) ? Tensor.where(c.input(0), g, 0.0) : null,
          c.needs(2) ? Tensor.where(c.input(0), 0.0, g) : null)));
  public static final Op MASKED_FILL = Op.elementwise("maskedFill", "where", 3, WHERE)
      .withDerivative(of(SELF, (c, g) -> grads(null, c.needs(1) ? Tensor.where(c.input(0), g, 0.0) : null,
          c.needs(2) ? Tensor.where(c.input(0), 0.0, g) : null)));

  // ---- reductions and scans ----
  public static final Op SUM = Op.reduction("sum", "sum", ReduceKind.ACCUMULATE)
      .withDerivative(of(0, Gradient::sumBackward));
  public static final Op PROD = Op.reduction("prod", "prod", ReduceKind.ACCUMULATE)
      .withDerivative(of(SELF | RESULT, Gradient::prodBackward));
  public static final Op MEAN = Op.reduction("mean", "sum", ReduceKind.ACCUMULATE)
      .withDerivative(of(0, Gradient::sumBackward));  // a scaled sum; floating input only
  public static final Op AMAX = Op.reduction("amax", "amax", ReduceKind.SAME)
      .withDerivative(of(SELF | RESULT, Gradient::extremeBackward));
  public static final Op AMIN = Op.reduction("amin", "amin", ReduceKind.SAME)
      .withDerivative(of(SELF | RESULT, Gradient::extremeBackward));
  /** max()/min() of every element: amax's kernel; the gradient picks the NaNs when the result is NaN (PyTorch's evenly_distribute_backward). */
  public static final Op MAX_ALL = Op.reduction("max", "amax", ReduceKind.SAME)
      .withDerivative(of(SELF | RESULT, Gradient::evenlyDistributeBackward));
  public static final Op MIN_ALL = Op.reduction("min", "amin", ReduceKind.SAME)
      .withDerivative(of(SELF | RESULT, Gradient::evenlyDistributeBackward));
  /** median() of every element (OrderStatistics): shared by the elements equal to it, as max(). */
  public static final Op MEDIAN_ALL = Op.composite("median", 1)
      .withDerivative(of(SELF | RESULT, Gradient::evenlyDistributeBackward));
  public static final Op NANMEDIAN_ALL = Op.composite("nanmedian", 1)
      .withDerivative(of(SELF | RESULT, Gradient::evenlyDistributeBackward));
  public static final Op ANY = Op.reduction("any", "any", ReduceKind.BOOL);
  public static final Op ALL = Op.reduction("all", "all", ReduceKind.BOOL);
  public static final Op ARGMAX = Op.reduction("argmax", "argmax", ReduceKind.INDEX);
  public static final Op ARGMIN = Op.reduction("argmin", "argmin", ReduceKind.INDEX);
  public static final Op MAX = Op.reduction("max", "argmax", ReduceKind.INDEX)
      .withDerivative(of(0, Gradient::selectedBackward));  // max(dim): values and indices
  public static final Op MIN = Op.reduction("min", "argmin", ReduceKind.INDEX)
      .withDerivative(of(0, Gradient::selectedBackward));
  public static final Op CUMSUM = Op.scan("cumsum", "cumsum")
      .withDerivative(of(0, Gradient::cumsumBackward));
  public static final Op CUMPROD = Op.scan("cumprod", "cumprod")
      .withDerivative(of(SELF | RESULT, Gradient::cumprodBackward));
  /** cumsum/cumprod(dim, dtype) from one floating dtype to another (ScanOps.withDtype): differentiated in the input's dtype. */
  public static final Op CUMSUM_DTYPE = Op.composite("cumsum", 1).withDerivative(of(0, ScanOps::cumsumDtypeBackward));
  public static final Op CUMPROD_DTYPE = Op.composite("cumprod", 1).withDerivative(of(SELF | RESULT, ScanOps::cumprodDtypeBackward));
  /** cummax/cummin (ScanOps): args Along, saved: the indices. */
  public static final Op CUMMAX = Op.scan("cummax", "cummax", ReduceKind.SAME)
      .withDerivative(of(0, ScanOps::cumExtremeBackward));
  public static final Op CUMMIN = Op.scan("cummin", "cummin", ReduceKind.SAME)
      .withDerivative(of(0, ScanOps::cumExtremeBackward));
  public static final Op LOGCUMSUMEXP = Op.scan("logcumsumexp", "logcumsumexp", ReduceKind.SAME)
      .withDerivative(of(SELF | RESULT, ScanOps::logcumsumexpBackward));
  /** softmax/log_softmax along dim (kernel: softmax; args: Along), differentiated from the saved result. */
  public static final Op SOFTMAX = Op.composite("softmax", 1).withDerivative(of(RESULT, (c, g) -> {
    Tensor y = c.result();
    return grads(y.mul(g.sub(g.mul(y).sum(c.args(Along.class).dim(), true))));
  }));
  public static final Op LOG_SOFTMAX = Op.composite("logSoftmax", 1).withDerivative(of(RESULT, (c, g) ->
      grads(g.sub(c.result().exp().mul(g.sum(c.args(Along.class).dim(), true))))));

  // ---- views (no kernel: new geometry over the same storage) and copies ----
  static final Op ALIAS = Op.composite("alias", 1).withDerivative(of(0, (c, g) -> grads(g)));
  static final Op VIEW = Op.composite("view", 1).withDerivative(Gradient.RESHAPE);
  public static final Op RESHAPE = Op.composite("reshape", 1).withDerivative(Gradient.RESHAPE);  // reshape that had to copy
  static final Op UNSQUEEZE = Op.composite("unsqueeze", 1).withDerivative(Gradient.RESHAPE);
  static final Op SQUEEZE = Op.composite("squeeze", 1).withDerivative(Gradient.RESHAPE);
  static final Op VIEW_DTYPE = Op.composite("viewDtype", 1);  // reinterpreted bytes: no derivative
  static final Op TRANSPOSE = Op.composite("transpose", 1)
      .withDerivative(of(0, (c, g) -> {
        Transpose a = c.args(Transpose.class);
        return grads(g.transpose(a.dim0(), a.dim1()));
      }));
  static final Op PERMUTE = Op.composite("permute", 1)
      .withDerivative(of(0, (c, g) -> grads(g.permute(Gradient.inverse(c.args(Permute.class).dims())))));
  static final Op EXPAND = Op.composite("expand", 1).withDerivative(of(0, (c, g) -> grads(g)));  // summed back by the node
  static final Op SLICE = Op.composite("slice", 1).withDerivative(Gradient.STRIDED);
  static final Op SELECT = Op.composite("select", 1).withDerivative(Gradient.STRIDED);
  static final Op DIAGONAL = Op.composite("diagonal", 1).withDerivative(Gradient.STRIDED);
  static final Op UNFOLD = Op.composite("unfold", 1).withDerivative(Gradient.STRIDED);
  static final Op AS_STRIDED = Op.composite("asStrided", 1).withDerivative(Gradient.STRIDED);
  public static final Op CLONE = Op.composite("clone", 1).withDerivative(of(0, (c, g) -> grads(g)));  // also contiguous
  // to(Device) and to(DType): the gradient goes back to the input's device and dtype (OpNode.fit): ToCopyBackward0
  public static final Op TO_COPY = Op.composite("toCopy", 1).withDerivative(of(0, (c, g) -> grads(g)));
  public static final Op COPY_ = Op.composite("copy", 2).withDerivative(of(0, (c, g) -> grads(null, g)));  // self is overwritten
  public static final Op FILL_ = Op.composite("fill", 1).withDerivative(of(0, (c, g) -> grads((Tensor) null)));
  // random draws overwrite self: no gradient reaches what it held (PyTorch's UniformBackward0, NormalBackward0)
  // In-place draws: a node of the graph with no gradient for self's history (PyTorch's UniformBackward0, ExponentialBackward0, ...)
  public static final Op UNIFORM_ = draw("uniform");
  public static final Op NORMAL_ = draw("normal");
  public static final Op EXPONENTIAL_ = draw("exponential");
  public static final Op GEOMETRIC_ = draw("geometric");
  public static final Op CAUCHY_ = draw("cauchy");
  public static final Op LOG_NORMAL_ = draw("logNormal");
  public static final Op RANDOM_ = draw("random");
  /** torch.normal(mean, std) with tensors: a draw, not a reparameterisation; PyTorch's NormalBackward3 gives both zeros. */
  /** torch.poisson: a draw; PyTorch's PoissonBackward0 gives the rates zeros. */
  public static final Op POISSON = Op.composite("poisson", 1).withDerivative(of(SELF, (c, g) -> grads(Tensor.zerosLike(c.input(0)))));
  public static final Op NORMAL = Op.composite("normal", 2).withDerivative(of(SELF | OTHER, (c, g) -> grads(
      c.needs(0) ? Tensor.zerosLike(c.input(0)) : null, c.needs(1) ? Tensor.zerosLike(c.input(1)) : null)));

  // ---- matrix products (kernel: gemm) ----
  static final Op MATMUL = Op.composite("matmul", 2).withDerivative(of(SELF | OTHER, Gradient::matmulBackward));
  static final Op MM = Op.composite("mm", 2).withDerivative(of(SELF | OTHER, Gradient::matmulBackward));
  static final Op BMM = Op.composite("bmm", 2).withDerivative(of(SELF | OTHER, Gradient::matmulBackward));
  static final Op DOT = Op.composite("dot", 2).withDerivative(of(SELF | OTHER, Gradient::matmulBackward));
  static final Op ADDMM = Op.composite("addmm", 3).withDerivative(of(OTHER | THIRD, (c, g) -> grads(
      c.needs(0) ? g.mul(c.param(0)) : null,
      c.needs(1) ? g.matmul(c.input(2).t()).mul(c.param(1)) : null,
      c.needs(2) ? c.input(1).t().matmul(g).mul(c.param(1)) : null)));

  // ---- torch.linalg on the native LU and Cholesky (LinearSolves, Determinants, CholeskyOps), detached then recorded ----
  static final Op SOLVE = Op.composite("solve", 2).withDerivative(of(SELF | RESULT, LinearSolves::solveBackward));
  static final Op INV = Op.composite("inv", 1).withDerivative(of(RESULT, LinearSolves::invBackward));
  static final Op DET = Op.composite("det", 1).withDerivative(of(SELF | RESULT, Determinants::detBackward));
  /** slogdet's logabsdet (its sign has no derivative). */
  static final Op LOGABSDET = Op.composite("slogdet", 1).withDerivative(of(SELF, Determinants::logabsdetBackward));
  /** args: upper (Boolean). */
  static final Op CHOLESKY = Op.composite("cholesky", 1).withDerivative(of(RESULT, CholeskyOps::backward));

  /** x·Wᵀ + b (LinearOp): saves x and W; W's gradient is gᵀ·x in W's own layout, b's the sum over rows. */
  static final Op LINEAR = Op.composite("linear", 3).withDerivative(of(SELF | OTHER, Gradient::linearBackward));

  // ---- indexing along one dim (kernel: index_along); args: Along, saved: the index ----
  static final Op INDEX_SELECT = Op.composite("indexSelect", 1).withDerivative(of(0, (c, g) -> grads(
      Tensor.zeros(c.inputShape(0), g.dtype(), g.device()).indexAdd_(c.args(Along.class).dim(), c.savedArg(0), g))));
  static final Op GATHER = Op.composite("gather", 1).withDerivative(of(0, (c, g) -> grads(
      Tensor.zeros(c.inputShape(0), g.dtype(), g.device()).scatterAdd(c.args(Along.class).dim(), c.savedArg(0), g))));
  static final Op SCATTER = Op.composite("scatter", 2).withDerivative(of(0, (c, g) -> grads(
      c.needs(0) ? g.scatter(c.args(Along.class).dim(), c.savedArg(0), Tensor.zeros(c.inputShape(1), g.dtype(), g.device())) : null,
      c.needs(1) ? g.gather(c.args(Along.class).dim(), c.savedArg(0)) : null)));
  // ---- sliding windows (WindowOps); args: the Windows, saved: max pooling's indices ----
  static final Op IM2COL = Op.composite("im2col", 1).withDerivative(of(0, (c, g) -> grads(
      WindowOps.col2im(g, c.args(Windows.class), "im2col_backward"))));
  static final Op COL2IM = Op.composite("col2im", 1).withDerivative(of(0, (c, g) -> grads(
      WindowOps.im2col(g, c.args(Windows.class), "col2im_backward"))));
  static final Op MAX_POOL = Op.composite("maxPool", 1).withDerivative(of(0, (c, g) -> grads(
      WindowOps.maxPoolBackward(g, c.args(Windows.class), c.savedArg(0)))));
  static final Op MAX_POOL_BACKWARD = Op.composite("maxPoolBackward", 1).withDerivative(of(0, (c, g) -> grads(
      Gradient.maxPoolBackwardBackward(g, c.args(Windows.class), c.savedArg(0)))));
  /** Convolution with direct kernels (ConvOps; kernel: conv): saves x and weight; args: the ConvShape. */
  static final Op CONVOLUTION = Op.composite("convolution", 3).withDerivative(of(SELF | OTHER, ConvOps::backward));
  /** Batch, layer and group norm (NormOps; kernel: norm): saves x and weight; args: a NodeArgs.Norm, saved: mean and rstd. */
  static final Op NORM = Op.composite("norm", 3).withDerivative(of(SELF | OTHER, NormOps::backward));
  /** grid_sample (GridSampleOps; kernel: grid_sample): saves input and grid; args: the GridSamplePacker.Sampling. */
  static final Op GRID_SAMPLE = Op.composite("gridSample", 2).withDerivative(of(SELF | OTHER, GridSampleOps::backward));
  /** Its gradients under createGraph: recorded so that differentiating them again fails loudly instead of giving nothing. */
  static final Op GRID_SAMPLE_BACKWARD = Op.composite("gridSampleBackward", 3).withDerivative(of(0, (c, g) -> {
    throw new UnsupportedOperationException("gridSampleBackward(): the derivative of grid_sample's gradients (double backward) is not "
        + "implemented");
  }));
  static final Op ATTENTION = Op.composite("scaledDotProductAttention", 3)
      .withDerivative(of(SELF | OTHER | THIRD | RESULT, AttentionOps::backward));
  static final Op SCATTER_ADD = Op.composite("scatterAdd", 2).withDerivative(of(0, (c, g) -> grads(
      g, c.needs(1) ? g.gather(c.args(Along.class).dim(), c.savedArg(0)) : null)));
  /** scatterReduce (ScatterReduceOps): saves self, src and the result; args: a NodeArgs.ScatterReduce, saved: the index. */
  static final Op SCATTER_REDUCE = Op.composite("scatterReduce", 2).withDerivative(of(SELF | OTHER | RESULT, ScatterReduceOps::backward));
  static final Op INDEX_ADD = Op.composite("indexAdd", 2).withDerivative(of(0, (c, g) -> grads(
      g, c.needs(1) ? g.indexSelect(c.args(Along.class).dim(), c.savedArg(0)).mul(c.param(0)) : null)));
  /**
   * x[index] = value, in place: x's gradient is g with the written elements zeroed, value's is g read
   * at them (summed back over value's broadcasting). saved: the row-major numbers of the written elements.
   */
  static final Op INDEX_PUT = Op.composite("indexPut", 2).withDerivative(of(0, (c, g) -> {
    Tensor pos = c.savedArg(0).reshape(-1);
    Tensor flat = g.reshape(-1);
    // zeros written in (as PyTorch's grad.index_put(indices, 0)), not g times a mask: inf · 0 would be NaN
    return grads(c.needs(0) ? flat.scatter(0, pos, 0.0).reshape(c.inputShape(0)) : null,
        c.needs(1) ? flat.gather(0, pos).reshape(c.savedArg(0).shape()) : null);
  }));
  /** sort's values: each element's gradient goes back to where it came from (args: Along, saved: the indices). */
  static final Op SORT = Op.composite("sort", 1).withDerivative(of(0, (c, g) -> grads(
      Tensor.zeros(c.inputShape(0), g.dtype(), g.device()).scatter(Math.max(c.args(Along.class).dim(), 0), c.savedArg(0).reshape(c.inputShape(0)),
          g.reshape(c.inputShape(0))))));
  /** x[advanced index]: saved: the row-major numbers, within the input, of the elements read. */
  static final Op INDEX = Op.composite("index", 1).withDerivative(of(0, (c, g) -> grads(
      Tensor.zeros(new long[] {Shapes.numel("index", c.inputShape(0))}, g.dtype(), g.device()).scatterAdd(0, c.savedArg(0).reshape(-1),
          g.reshape(-1)).reshape(c.inputShape(0)))));
  /** args: a NodeArgs.Cat, the dim and each input's size along it (0 for a skipped empty 1-D input). */
  static final Op CAT = Op.composite("cat", -1).withDerivative(of(0, Gradient::catBackward));

  /** Ops that divide integers: a zero divisor raises ArithmeticException, as PyTorch's ZeroDivisionError. */
  static boolean dividesIntegers(Op op) {
    return op == DIV_TRUNC || op == DIV_FLOOR || op == FLOOR_DIVIDE || op == REMAINDER || op == FMOD;
  }

  private static Op draw(String name) {
    return Op.composite(name, 1).withDerivative(of(0, (c, g) -> grads((Tensor) null)));
  }

  private static Op unary(String name, OpKind kind) {
    return Op.elementwise(name, name, 1, kind);
  }

  private static Op binary(String name, OpKind kind) {
    return Op.elementwise(name, name, 2, kind);
  }

  static {
    NativeContract.verify(Op.registered());
  }
}
