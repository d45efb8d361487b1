package org.jtensor;

import org.jtensor.dispatch.Op;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.DataOps;
import org.jtensor.ops.ElementwiseChecks;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;
import org.jtensor.ops.TypePromotion;

/**
 * Tensor's elementwise operations, PyTorch's names in Java case. Kept apart from Tensor so each
 * file stays about one thing; every method here is inherited by {@link Tensor}. Java long, double
 * and boolean arguments act as Python int, float and bool scalars in type promotion.
 */
public sealed interface ElementwiseMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  // ---- plumbing: one line per op below ----

  // Each op names its registry entry (Ops); in-place and out= variants take their names from it. The
  // *As forms run an op under the name the user called (an alias's refusals name the alias).
  private Tensor unary(Op op, double... params) {
    return unaryAs(op.name, op, params);
  }

  private Tensor unaryAs(String name, Op op, double... params) {
    return Tensor.wrap(ElementwiseOps.run(op, name, null, params, Operand.of(impl(name))));
  }

  private Tensor unary_(Op op, double... params) {
    return unaryAs_(op.inPlaceName, op, params);
  }

  private Tensor unaryAs_(String name, Op op, double... params) {
    TensorImpl t = impl(name);
    ElementwiseOps.run(op, name, t, params, Operand.of(t));
    return self();
  }

  private Tensor binary(Op op, Operand other, double... params) {
    return binaryAs(op.name, op, other, params);
  }

  private Tensor binaryAs(String name, Op op, Operand other, double... params) {
    return Tensor.wrap(ElementwiseOps.run(op, name, null, params, Operand.of(impl(name)), other));
  }

  private Tensor binary_(Op op, Operand other, double... params) {
    TensorImpl t = impl(op.inPlaceName);
    ElementwiseOps.run(op, op.inPlaceName, t, params, Operand.of(t), other);
    return self();
  }

  private Tensor binaryOut(Op op, Operand other, Tensor out, double... params) {
    ElementwiseOps.run(op, op.outName, Tensor.implOf(out, op.outName), params, Operand.of(impl(op.outName)), other);
    return out;
  }

  /** add/sub with a Python int alpha: to the kernel as a double and exactly (an int64 one past 2^53 must not round). */
  private Tensor withAlpha(Op op, boolean inPlace, Operand other, long alpha) {
    String name = inPlace ? op.inPlaceName : op.name;
    double[] params = {alpha(name, other, alpha)};
    TensorImpl t = impl(name);
    TensorImpl r = ElementwiseOps.run(op, name, inPlace ? t : null, params, new long[] {alpha}, Operand.of(t), other);
    return inPlace ? self() : Tensor.wrap(r);
  }

  private static Operand t(Tensor x, String op) {
    return Operand.of(Tensor.implOf(x, op));
  }

  /**
   * A double alpha is a Python float: PyTorch refuses it when the computation is integral (alpha=2.0
   * too; the long overloads take integers), and converts it to the computation's dtype without overflow.
   */
  private double alpha(String op, Operand other, double alpha) {
    DType computation = computation(op, other);
    if (!computation.isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): For integral input tensors, argument alpha must not be a floating point number.");
    }
    computation.checkFits(op, alpha);
    return asElement(computation, alpha);
  }

  /** A long alpha is a Python int: it converts to the computation's dtype without overflow (uint8 takes -1, int8 refuses 300). */
  private double alpha(String op, Operand other, long alpha) {
    if (alpha == 1) return 1;
    DType computation = computation(op, other);
    computation.checkFits(op, alpha);
    return asElement(computation, alpha);
  }

  /**
   * alpha as PyTorch's add/sub use it: converted to the computation's dtype, so a float16/bfloat16
   * add rounds it (alpha 1.0004 is 1.0, 2049 is 2048) though the kernel computes in float32.
   */
  private static double asElement(DType computation, double alpha) {
    if (computation.opMath() == computation) return alpha;
    try (Tensor rounded = Tensor.scalar(alpha, computation)) {
      return rounded.item();
    }
  }

  private DType computation(String op, Operand other) {
    TypePromotion p = TypePromotion.start().tensor(impl(op));
    other.promote(p);
    return p.result();
  }

  /** Integer tensors have no fractional part: floor/ceil/round/trunc of them is a copy; of bool, refused as PyTorch's. */
  private Tensor rounding(Op op) {
    return rounding(op.name, op);
  }

  private Tensor rounding(String name, Op op) {
    TensorImpl t = impl(name);
    if (t.dtype() == DType.BOOL) throw noKernel(name, t);
    if (!t.dtype().isFloatingPoint()) return Tensor.wrap(DataOps.cloneAs(name, t, t.dtype(), t.device(), false));
    return unaryAs(name, op);
  }

  /** In place: an integer tensor is whole already and stays as it is (if writable), as PyTorch's. */
  private Tensor rounding_(Op op) {
    return rounding_(op.inPlaceName, op);
  }

  private Tensor rounding_(String name, Op op) {
    TensorImpl t = impl(name);
    if (t.dtype() == DType.BOOL) throw noKernel(name, t);
    if (t.dtype().isFloatingPoint()) return unaryAs_(name, op);
    DataOps.checkWritable(name, t);
    return self();
  }

  // ---- arithmetic ----
  default Tensor add(Tensor other) { return binary(Ops.ADD, t(other, "add"), 1); }
  default Tensor add(Tensor other, double alpha) { Operand o = t(other, "add"); return binary(Ops.ADD, o, alpha("add", o, alpha)); }
  default Tensor add(Tensor other, long alpha) { return withAlpha(Ops.ADD, false, t(other, "add"), alpha); }
  default Tensor add(double v) { return binary(Ops.ADD, Operand.of(v), 1); }
  default Tensor add(long v) { return binary(Ops.ADD, Operand.of(v), 1); }
  /** A Python bool scalar: promotes like True/False. */
  default Tensor add(boolean v) { return binary(Ops.ADD, Operand.of(v), 1); }
  default Tensor add_(Tensor other) { return binary_(Ops.ADD, t(other, "add_"), 1); }
  default Tensor add_(Tensor other, double alpha) { Operand o = t(other, "add_"); return binary_(Ops.ADD, o, alpha("add_", o, alpha)); }
  default Tensor add_(Tensor other, long alpha) { return withAlpha(Ops.ADD, true, t(other, "add_"), alpha); }
  default Tensor add_(double v) { return binary_(Ops.ADD, Operand.of(v), 1); }
  default Tensor add_(long v) { return binary_(Ops.ADD, Operand.of(v), 1); }
  /** torch.add(self, other, out=out): writes out (same shape as the broadcast) and returns it. */
  default Tensor addOut(Tensor other, Tensor out) { return binaryOut(Ops.ADD, t(other, "addOut"), out, 1); }
  default Tensor sub(Tensor other) { return binary(Ops.SUB, t(other, "sub"), 1); }
  default Tensor sub(Tensor other, double alpha) { Operand o = t(other, "sub"); return binary(Ops.SUB, o, alpha("sub", o, alpha)); }
  default Tensor sub(Tensor other, long alpha) { return withAlpha(Ops.SUB, false, t(other, "sub"), alpha); }
  default Tensor sub(double v) { return binary(Ops.SUB, Operand.of(v), 1); }
  default Tensor sub(long v) { return binary(Ops.SUB, Operand.of(v), 1); }
  default Tensor sub_(Tensor other) { return binary_(Ops.SUB, t(other, "sub_"), 1); }
  default Tensor sub_(Tensor other, double alpha) { Operand o = t(other, "sub_"); return binary_(Ops.SUB, o, alpha("sub_", o, alpha)); }
  default Tensor sub_(Tensor other, long alpha) { return withAlpha(Ops.SUB, true, t(other, "sub_"), alpha); }

  /** other − self (torch.rsub). */
  default Tensor rsub(Tensor other) { return other.sub(self()); }
  /** v − self: a Python float, so an integer tensor gives float32 (negated after the conversion: uint8 1 gives 0., not 256.). */
  default Tensor rsub(double v) { return rsubScalar(self().resultType(v), Operand.of(v)); }
  /** v − self: a Python int, so the result keeps an integer tensor's dtype (wrapping as PyTorch's: 1 − uint8 5 is 252). */
  default Tensor rsub(long v) { return rsubScalar(self().resultType(v), Operand.of(v)); }

  /** −self + v in the result's dtype: self is converted first, so its negation cannot wrap in a narrower one. */
  private Tensor rsubScalar(DType result, Operand v) {
    TensorImpl t = impl("rsub");
    if (t.dtype() == DType.BOOL) throw new IllegalArgumentException("rsub(): " + ElementwiseChecks.SUB_BOOL);
    try (Tensor c = self().to(result); Tensor n = c.neg()) {
      return Tensor.wrap(ElementwiseOps.run(Ops.ADD, "rsub", null, new double[] {1}, Operand.of(n.impl("rsub")), v));
    }
  }
  /** self · self; a bool tensor squares as PyTorch's pow(x, 2): to int64. */
  default Tensor square() { return impl("square").dtype() == DType.BOOL ? self().pow(2L) : self().mul(self()); }
  default Tensor sub_(double v) { return binary_(Ops.SUB, Operand.of(v), 1); }
  default Tensor sub_(long v) { return binary_(Ops.SUB, Operand.of(v), 1); }
  default Tensor subOut(Tensor other, Tensor out) { return binaryOut(Ops.SUB, t(other, "subOut"), out, 1); }
  default Tensor mul(Tensor other) { return binary(Ops.MUL, t(other, "mul")); }
  default Tensor mul(double v) { return binary(Ops.MUL, Operand.of(v)); }
  default Tensor mul(long v) { return binary(Ops.MUL, Operand.of(v)); }
  default Tensor mul_(Tensor other) { return binary_(Ops.MUL, t(other, "mul_")); }
  default Tensor mul_(double v) { return binary_(Ops.MUL, Operand.of(v)); }
  default Tensor mul_(long v) { return binary_(Ops.MUL, Operand.of(v)); }
  default Tensor mulOut(Tensor other, Tensor out) { return binaryOut(Ops.MUL, t(other, "mulOut"), out); }
  /** True division: integers divide as floats. */
  default Tensor div(Tensor other) { return binary(Ops.DIV, t(other, "div")); }
  default Tensor div(double v) { return binary(Ops.DIV, Operand.of(v)); }
  default Tensor div(long v) { return binary(Ops.DIV, Operand.of(v)); }
  /** div with rounding_mode: null (true division), "trunc" or "floor". */
  default Tensor div(Tensor other, String roundingMode) { return binary(Ops.div("div", roundingMode), t(other, "div")); }
  default Tensor div(double v, String roundingMode) { return binary(Ops.div("div", roundingMode), Operand.of(v)); }
  /** div by a Python int: "trunc" and "floor" keep an integer tensor's dtype (and refuse a zero divisor), as PyTorch's. */
  default Tensor div(long v, String roundingMode) { return binary(Ops.div("div", roundingMode), Operand.of(v)); }
  default Tensor div_(Tensor other) { return binary_(Ops.DIV, t(other, "div_")); }
  default Tensor div_(double v) { return binary_(Ops.DIV, Operand.of(v)); }
  default Tensor divOut(Tensor other, Tensor out) { return binaryOut(Ops.DIV, t(other, "divOut"), out); }
  default Tensor floorDivide(Tensor other) { return binary(Ops.FLOOR_DIVIDE, t(other, "floorDivide")); }
  default Tensor floorDivide(long v) { return binary(Ops.FLOOR_DIVIDE, Operand.of(v)); }
  default Tensor floorDivide(double v) { return binary(Ops.FLOOR_DIVIDE, Operand.of(v)); }
  /** Python's %: the result has the divisor's sign. */
  default Tensor remainder(Tensor other) { return binary(Ops.REMAINDER, t(other, "remainder")); }
  default Tensor remainder(long v) { return binary(Ops.REMAINDER, Operand.of(v)); }
  default Tensor remainder(double v) { return binary(Ops.REMAINDER, Operand.of(v)); }
  default Tensor pow(Tensor exponent) { return binary(Ops.POW, t(exponent, "pow")); }
  default Tensor pow(double exponent) { return binary(Ops.POW, exponent("pow", exponent)); }
  default Tensor pow(long exponent) { return binary(Ops.POW, exponent("pow", exponent)); }
  /** In place: the result must cast to self's dtype (an integer tensor takes no float exponent), as PyTorch's. */
  default Tensor pow_(Tensor exponent) { return binary_(Ops.POW, t(exponent, "pow_")); }
  default Tensor pow_(double exponent) { return binary_(Ops.POW, exponent("pow_", exponent)); }
  default Tensor pow_(long exponent) { return binary_(Ops.POW, exponent("pow_", exponent)); }

  private Operand exponent(String op, double exponent) {
    if (exponentIsChecked(impl(op).dtype(), self().resultType(exponent))) impl(op).dtype().checkScalar(op, exponent);
    return Operand.of(exponent);
  }

  private Operand exponent(String op, long exponent) {
    TensorImpl s = impl(op);
    if (exponent < 0 && !s.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): Integers to negative integer powers are not allowed.");
    }
    if (exponentIsChecked(s.dtype(), self().resultType(exponent))) s.dtype().checkFits(op, exponent);
    return Operand.of(exponent);
  }

  /**
   * PyTorch's pow converts a scalar exponent that does not promote to self's dtype with its checked
   * conversion (float32 and float64 read it as a double): int8 ** 300 and float16 ** 70000 are refused
   * ("value cannot be converted to type int8_t without overflow"), where they wrapped or gave inf.
   */
  private static boolean exponentIsChecked(DType self, DType result) {
    return result == self && self != DType.FLOAT32 && self != DType.FLOAT64;
  }
  default Tensor neg() { return unary(Ops.NEG); }
  default Tensor neg_() { return unary_(Ops.NEG); }
  default Tensor abs() { return unary(Ops.ABS); }
  default Tensor abs_() { return unary_(Ops.ABS); }
  default Tensor reciprocal() { return unary(Ops.RECIPROCAL); }
  default Tensor reciprocal_() { return unary_(Ops.RECIPROCAL); }
  /** A bool tensor is its own sign (a copy), as PyTorch's. */
  default Tensor sign() { return sign("sign"); }
  /** sign for real tensors (torch.sgn's complex case aside). */
  default Tensor sgn() { return sign("sgn"); }
  private Tensor sign(String name) {
    TensorImpl t = impl(name);
    if (t.dtype() == DType.BOOL) return Tensor.wrap(DataOps.cloneAs(name, t, t.dtype(), t.device(), false));
    return unaryAs(name, Ops.SIGN);
  }
  default Tensor negative() { return unaryAs("negative", Ops.NEG); }
  default Tensor negative_() { return unaryAs_("negative_", Ops.NEG); }
  /** self itself, as a new handle (PyTorch returns self); bool refused, as PyTorch's unary plus. */
  default Tensor positive() {
    if (impl("positive").dtype() == DType.BOOL) throw new IllegalArgumentException("positive(): The `+` operator, on a bool tensor is not supported.");
    return self().same("positive");
  }
  default Tensor trueDivide(Tensor other) { return binaryAs("trueDivide", Ops.DIV, t(other, "trueDivide")); }
  default Tensor trueDivide(double v) { return binaryAs("trueDivide", Ops.DIV, Operand.of(v)); }
  /** self ** exponent in float64, whatever the dtypes (torch.float_power). */
  default Tensor floatPower(Tensor exponent) {
    impl("floatPower");
    Tensor.implOf(exponent, "floatPower");
    try (Tensor base = self().to(DType.FLOAT64); Tensor e = exponent.to(DType.FLOAT64)) {
      return base.pow(e);
    }
  }
  default Tensor floatPower(double exponent) {
    impl("floatPower");
    try (Tensor base = self().to(DType.FLOAT64)) {
      return base.pow(exponent);
    }
  }
  default Tensor maximum(Tensor other) { return binary(Ops.MAXIMUM, t(other, "maximum")); }
  default Tensor minimum(Tensor other) { return binary(Ops.MINIMUM, t(other, "minimum")); }
  /** The larger of the two, ignoring a NaN unless both are (torch.fmax); the first of equals. */
  default Tensor fmax(Tensor other) { return binary(Ops.FMAX, t(other, "fmax")); }
  /** The smaller of the two, ignoring a NaN unless both are (torch.fmin). */
  default Tensor fmin(Tensor other) { return binary(Ops.FMIN, t(other, "fmin")); }

  /** The refusal of an op with no kernel for t's dtype, in the words of ElementwiseOps'. */
  private static UnsupportedOperationException noKernel(String op, TensorImpl t) {
    return new UnsupportedOperationException(op + " has no " + t.device().type() + " kernel for " + t.dtype());
  }

  // ---- comparisons and logic (to bool) ----
  default Tensor eq(Tensor o) { return binary(Ops.EQ, t(o, "eq")); }
  default Tensor eq(double v) { return binary(Ops.EQ, Operand.of(v)); }
  default Tensor eq(long v) { return binary(Ops.EQ, Operand.of(v)); }
  default Tensor ne(Tensor o) { return binary(Ops.NE, t(o, "ne")); }
  default Tensor ne(double v) { return binary(Ops.NE, Operand.of(v)); }
  default Tensor ne(long v) { return binary(Ops.NE, Operand.of(v)); }
  default Tensor lt(Tensor o) { return binary(Ops.LT, t(o, "lt")); }
  default Tensor lt(double v) { return binary(Ops.LT, Operand.of(v)); }
  default Tensor lt(long v) { return binary(Ops.LT, Operand.of(v)); }
  default Tensor le(Tensor o) { return binary(Ops.LE, t(o, "le")); }
  default Tensor le(double v) { return binary(Ops.LE, Operand.of(v)); }
  default Tensor le(long v) { return binary(Ops.LE, Operand.of(v)); }
  default Tensor gt(Tensor o) { return binary(Ops.GT, t(o, "gt")); }
  default Tensor gt(double v) { return binary(Ops.GT, Operand.of(v)); }
  default Tensor gt(long v) { return binary(Ops.GT, Operand.of(v)); }
  default Tensor ge(Tensor o) { return binary(Ops.GE, t(o, "ge")); }
  default Tensor ge(double v) { return binary(Ops.GE, Operand.of(v)); }
  default Tensor ge(long v) { return binary(Ops.GE, Operand.of(v)); }
  default Tensor logicalAnd(Tensor o) { return binary(Ops.LOGICAL_AND, t(o, "logicalAnd")); }
  default Tensor logicalOr(Tensor o) { return binary(Ops.LOGICAL_OR, t(o, "logicalOr")); }
  default Tensor logicalXor(Tensor o) { return binary(Ops.LOGICAL_XOR, t(o, "logicalXor")); }
  default Tensor logicalNot() { return unary(Ops.LOGICAL_NOT); }
  default Tensor isnan() { return unary(Ops.ISNAN); }
  default Tensor isinf() { return unary(Ops.ISINF); }
  default Tensor isfinite() { return unary(Ops.ISFINITE); }
  /** Whether the sign bit is set: true for -0.0 and a negative NaN; x < 0 for integers; false for bool. */
  default Tensor signbit() { return unary(Ops.SIGNBIT); }
  default Tensor isposinf() { return infinity("isposinf", Double.POSITIVE_INFINITY); }
  default Tensor isneginf() { return infinity("isneginf", Double.NEGATIVE_INFINITY); }
  private Tensor infinity(String op, double inf) {
    TensorImpl t = impl(op);
    return t.dtype().isFloatingPoint() ? self().eq(inf) : unary(Ops.ISINF);  // integers: all false, as isinf's
  }
  /** Greatest common divisor of |self| and |other| (integers only; gcd(0, 0) is 0). */
  default Tensor gcd(Tensor other) { return integral(Ops.GCD, other); }
  /** Least common multiple |self / gcd · other|, wrapping in the dtype as PyTorch's (integers only). */
  default Tensor lcm(Tensor other) { return integral(Ops.LCM, other); }
  /** An op PyTorch has for integer dtypes only: floats and bool refused in its words ("gcd_cpu" not implemented for 'Float'). */
  private Tensor integral(Op op, Tensor other) {
    TensorImpl t = impl(op.name);
    DType d = TypePromotion.start().tensor(t).tensor(Tensor.implOf(other, op.name)).result();
    if (d.isFloatingPoint() || d == DType.BOOL) {
      throw org.jtensor.core.ScalarTypes.notImplemented(op.name, op.name + (t.device().isCpu() ? "_cpu" : "_cuda"), d);
    }
    return binary(op, t(other, op.name));
  }
  default Tensor bitwiseAnd(Tensor o) { return binary(Ops.BITWISE_AND, t(o, "bitwiseAnd")); }
  default Tensor bitwiseOr(Tensor o) { return binary(Ops.BITWISE_OR, t(o, "bitwiseOr")); }
  default Tensor bitwiseXor(Tensor o) { return binary(Ops.BITWISE_XOR, t(o, "bitwiseXor")); }
  default Tensor bitwiseAnd(long v) { return binary(Ops.BITWISE_AND, Operand.of(v)); }
  default Tensor bitwiseOr(long v) { return binary(Ops.BITWISE_OR, Operand.of(v)); }
  default Tensor bitwiseXor(long v) { return binary(Ops.BITWISE_XOR, Operand.of(v)); }
  default Tensor bitwiseNot() { return unary(Ops.BITWISE_NOT); }

  // ---- math (integers compute in the default float) ----
  default Tensor exp() { return unary(Ops.EXP); }
  default Tensor exp_() { return unary_(Ops.EXP); }
  default Tensor exp2() { return unary(Ops.EXP2); }
  default Tensor log() { return unary(Ops.LOG); }
  default Tensor log_() { return unary_(Ops.LOG); }
  default Tensor log2() { return unary(Ops.LOG2); }
  default Tensor log2_() { return unary_(Ops.LOG2); }
  default Tensor log10() { return unary(Ops.LOG10); }
  default Tensor log10_() { return unary_(Ops.LOG10); }
  default Tensor log1p() { return unary(Ops.LOG1P); }
  default Tensor log1p_() { return unary_(Ops.LOG1P); }
  default Tensor expm1() { return unary(Ops.EXPM1); }
  default Tensor expm1_() { return unary_(Ops.EXPM1); }
  default Tensor sqrt() { return unary(Ops.SQRT); }
  default Tensor sqrt_() { return unary_(Ops.SQRT); }
  default Tensor rsqrt() { return unary(Ops.RSQRT); }
  default Tensor rsqrt_() { return unary_(Ops.RSQRT); }
  default Tensor sigmoid() { return unary(Ops.SIGMOID); }
  default Tensor sigmoid_() { return unary_(Ops.SIGMOID); }
  default Tensor erf() { return unary(Ops.ERF); }
  default Tensor erf_() { return unary_(Ops.ERF); }
  /** 1 - erf(x), without the cancellation for large x. */
  default Tensor erfc() { return unary(Ops.ERFC); }
  /** torch.erfinv: the inverse of erf on (-1, 1); +-1 give +-inf, values past them NaN. */
  default Tensor erfinv() { return unary(Ops.ERFINV); }
  default Tensor erfinv_() { return unary_(Ops.ERFINV); }
  /** log|Γ(x)|. */
  default Tensor lgamma() { return unary(Ops.LGAMMA); }
  /** Γ'(x)/Γ(x) (torch.digamma): -inf at +0, +inf at -0, NaN at the negative integers. */
  default Tensor digamma() { return unary(Ops.DIGAMMA); }
  /** The n-th derivative of digamma (n = 0 is digamma, 1 trigamma); n below 0 refused, as PyTorch's. */
  default Tensor polygamma(int n) { return unary(Ops.POLYGAMMA, polygammaOrder("polygamma", n)); }
  default Tensor polygamma_(int n) { return unary_(Ops.POLYGAMMA, polygammaOrder("polygamma_", n)); }
  private double polygammaOrder(String op, int n) {
    impl(op);
    if (n < 0) throw new IllegalArgumentException(op + "(): polygamma(n, x) does not support negative n.");
    return n;
  }
  /** I0(x), the modified Bessel function of order 0 (torch.i0; its kin are {@link Special}'s). */
  default Tensor i0() { return unary(Ops.I0); }
  default Tensor i0_() { return unary_(Ops.I0); }
  /** sin(πx)/(πx), 1 at 0 (the normalized sinc, torch.sinc). */
  default Tensor sinc() { return unary(Ops.SINC); }
  /** √(x² + y²) without overflow; floating tensors. */
  default Tensor hypot(Tensor other) { return binary(Ops.HYPOT, t(other, "hypot")); }
  /** log(eˣ + eʸ) without overflow; floating tensors. */
  default Tensor logaddexp(Tensor other) { return binary(Ops.LOGADDEXP, t(other, "logaddexp")); }
  /** log₂(2ˣ + 2ʸ); floating tensors. */
  default Tensor logaddexp2(Tensor other) { return binary(Ops.LOGADDEXP2, t(other, "logaddexp2")); }
  /** x·log(y), 0 where x is 0 unless y is NaN (torch.xlogy). */
  default Tensor xlogy(Tensor other) { return binary(Ops.XLOGY, t(other, "xlogy")); }
  default Tensor xlogy(double other) { return binary(Ops.XLOGY, Operand.of(other)); }
  /** |x| with the sign of other (integers compute in the default float). */
  default Tensor copysign(Tensor other) { return binary(Ops.COPYSIGN, t(other, "copysign")); }
  default Tensor copysign(double other) { return binary(Ops.COPYSIGN, Operand.of(other)); }
  /** The remainder of x / other truncated toward zero, with x's sign (C's fmod; remainder() floors). */
  default Tensor fmod(Tensor other) { return binary(Ops.FMOD, t(other, "fmod")); }
  default Tensor fmod(double other) { return binary(Ops.FMOD, Operand.of(other)); }
  default Tensor fmod(long other) { return binary(Ops.FMOD, Operand.of(other)); }
  /** x - trunc(x), with x's sign; floating tensors only, as PyTorch's. */
  default Tensor frac() {
    TensorImpl t = impl("frac");
    if (!t.dtype().isFloatingPoint()) throw org.jtensor.core.ScalarTypes.notImplemented("frac", "frac", t.dtype());
    return unary(Ops.FRAC);
  }
  /** 0 where x < 0, 1 where x > 0, values where x is 0 (torch.heaviside); values of x's dtype. */
  default Tensor heaviside(Tensor values) {
    TensorImpl t = impl("heaviside"), v = Tensor.implOf(values, "heaviside");
    if (t.dtype() != v.dtype()) throw new IllegalArgumentException("heaviside(): heaviside is not yet implemented for tensors with different dtypes.");
    return binary(Ops.HEAVISIDE, Operand.of(v));
  }
  default Tensor floor() { return rounding(Ops.FLOOR); }
  default Tensor ceil() { return rounding(Ops.CEIL); }
  /** Rounds half to even, as torch.round. */
  default Tensor round() { return rounding(Ops.ROUND); }
  default Tensor trunc() { return rounding(Ops.TRUNC); }
  default Tensor floor_() { return rounding_(Ops.FLOOR); }
  default Tensor ceil_() { return rounding_(Ops.CEIL); }
  default Tensor round_() { return rounding_(Ops.ROUND); }
  default Tensor trunc_() { return rounding_(Ops.TRUNC); }
  /** Rounds toward zero (torch.fix, trunc's alias). */
  default Tensor fix() { return rounding("fix", Ops.TRUNC); }
  default Tensor fix_() { return rounding_("fix_", Ops.TRUNC); }

  /** NaN to 0, +inf and -inf to the dtype's largest and lowest finite values (torch.nan_to_num). */
  default Tensor nanToNum() { return nanToNum(0.0, null, null); }
  /** NaN to nan, +inf to posinf, -inf to neginf; a null bound is the dtype's largest (lowest) finite value. */
  default Tensor nanToNum(double nan, Double posinf, Double neginf) {
    TensorImpl t = impl("nanToNum");
    DType d = t.dtype();
    if (!d.isFloatingPoint()) return Tensor.wrap(DataOps.cloneAs("nanToNum", t, d, t.device(), false));  // no NaN or infinity: a copy
    double max = d.maxFinite();
    return unary(Ops.NAN_TO_NUM, nan, posinf == null ? max : posinf, neginf == null ? -max : neginf);
  }
}
