package org.jtensor;

import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.ElementwiseOps;
import org.jtensor.ops.Operand;
import org.jtensor.ops.Ops;

/**
 * Tensor's activations, torch.nn.functional's names in Java case ({@code x.hardswish()} is
 * {@code F.hardswish(x)}); each is one kernel with PyTorch's derivative, or a composition of ops
 * where PyTorch composes too. The modules of org.jtensor.nn apply them. Inherited by {@link Tensor}.
 */
public sealed interface ActivationMethods permits Tensor {
  /** SELU's constants (Klambauer et al.), as PyTorch passes them to its elu kernel. */
  double SELU_ALPHA = 1.6732632423543772848170429916717;
  double SELU_SCALE = 1.0507009873554804934193349852946;

  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  private Tensor unary(Op op, double... params) {
    return Tensor.wrap(ElementwiseOps.run(op, op.name, null, params, Operand.of(impl(op.name))));
  }

  /** A kernel PyTorch has for floating types only: integers and bool refused in its words. */
  private Tensor floating(String name, Op op, double... params) {
    TensorImpl t = impl(name);
    if (!t.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented(name, name, t.dtype());
    return Tensor.wrap(ElementwiseOps.run(op, name, null, params, Operand.of(t)));
  }

  default Tensor relu() { return unary(Ops.RELU); }
  default Tensor relu_() {
    TensorImpl t = impl(Ops.RELU.inPlaceName);
    ElementwiseOps.run(Ops.RELU, Ops.RELU.inPlaceName, t, ElementwiseOps.NO_PARAMS, Operand.of(t));
    return self();
  }
  /** gelu with the exact erf form. */
  default Tensor gelu() { return unary(Ops.GELU); }
  /** gelu(approximate): "none" (erf) or "tanh". */
  default Tensor gelu(String approximate) {
    switch (approximate) {
      case "none": return gelu();
      case "tanh": return unary(Ops.GELU_TANH);
      default: throw new IllegalArgumentException("gelu(): approximate argument must be either none or tanh, got '" + approximate + "'");
    }
  }
  default Tensor silu() { return unary(Ops.SILU); }
  default Tensor softplus() { return softplus(1.0, 20.0); }
  default Tensor softplus(double beta, double threshold) { return unary(Ops.SOFTPLUS, beta, threshold); }
  default Tensor leakyRelu(double negativeSlope) { return unary(Ops.LEAKY_RELU, negativeSlope); }
  default Tensor leakyRelu() { return leakyRelu(0.01); }
  default Tensor elu() { return elu(1.0); }
  /** alpha (e^x - 1) at and below 0, x above; floating tensors only, as PyTorch's. */
  default Tensor elu(double alpha) { return floating("elu", Ops.ELU, alpha, 1, 1); }
  /** scale · elu(x, alpha) with SELU's constants (torch.selu). */
  default Tensor selu() { return floating("selu", Ops.SELU, SELU_ALPHA, SELU_SCALE, 1); }
  default Tensor celu() { return celu(1.0); }
  /** max(0, x) + min(0, alpha (e^(x / alpha) - 1)) (torch.celu); alpha 0 is refused. */
  default Tensor celu(double alpha) {
    if (alpha == 0) throw new ArithmeticException("celu(): ZeroDivisionError: alpha cannot be 0 for CELU");
    return floating("celu", Ops.CELU, alpha, 1, 1.0 / alpha);
  }
  /** x · relu6(x + 3) / 6. */
  default Tensor hardswish() { return floating("hardswish", Ops.HARDSWISH); }
  /** relu6(x + 3) / 6. */
  default Tensor hardsigmoid() { return floating("hardsigmoid", Ops.HARDSIGMOID); }
  /** x · tanh(softplus(x)). */
  default Tensor mish() { return floating("mish", Ops.MISH); }
  /** log(sigmoid(x)), without overflow at either end (F.logsigmoid). */
  default Tensor logSigmoid() { return floating("logSigmoid", Ops.LOG_SIGMOID); }
  default Tensor hardshrink() { return hardshrink(0.5); }
  /** 0 within [-lambd, lambd], x elsewhere. */
  default Tensor hardshrink(double lambd) {
    TensorImpl t = impl("hardshrink");
    if (!t.dtype().isFloatingPoint()) return floating("hardshrink", Ops.HARDSHRINK, lambd);  // refused in PyTorch's words
    // PyTorch's kernel takes lambd as the tensor's dtype (checked): float16 and bfloat16 round it, where
    // comparing x with the float lambd kept an x that PyTorch zeroes
    t.dtype().checkFits("hardshrink", lambd);
    if (t.dtype().opMath() != t.dtype()) {
      try (Tensor l = Tensor.scalar((float) lambd, t.dtype())) {
        lambd = l.item();
      }
    }
    return floating("hardshrink", Ops.HARDSHRINK, lambd);
  }
  default Tensor softshrink() { return softshrink(0.5); }
  /** x moved lambd toward 0, 0 within [-lambd, lambd]; lambd must be at least 0. */
  default Tensor softshrink(double lambd) {
    TensorImpl t = impl("softshrink");
    if (t.dtype().isFloatingPoint() && !(lambd >= 0 && lambd <= t.dtype().maxFinite())) {
      throw new IllegalArgumentException("softshrink(): lambda must be in range [0, " + t.dtype().maxFinite() + "] for input dtype "
          + ScalarTypes.name(t.dtype()) + ", but found " + lambd);
    }
    return floating("softshrink", Ops.SOFTSHRINK, lambd);
  }
  /** x - tanh(x), composed as PyTorch's. */
  default Tensor tanhshrink() {
    try (Tensor th = self().tanh()) {
      return self().sub(th);
    }
  }
  /** x / (1 + |x|), composed as PyTorch's. */
  default Tensor softsign() {
    try (Tensor a = self().abs(); Tensor d = a.add(1L)) {
      return self().div(d);
    }
  }
  /** value where x ≤ threshold, x elsewhere (F.threshold); integer tensors take both truncated. */
  default Tensor threshold(double threshold, double value) {
    TensorImpl t = impl("threshold");
    DType d = t.dtype();
    if (d == DType.BOOL) throw ScalarTypes.notImplemented("threshold", "threshold", d);
    // PyTorch's checked conversions: both into an integer dtype (uint8's -1.5, int8's 300 and NaN
    // wrapped or truncated silently), value into a floating one (the threshold is compared in float)
    if (!d.isFloatingPoint()) d.checkScalar("threshold", threshold);
    d.checkScalar("threshold", value);
    long[] exact = {(long) threshold, (long) value};
    return Tensor.wrap(ElementwiseOps.run(Ops.THRESHOLD, "threshold", null, new double[] {threshold, value}, exact, Operand.of(t)));
  }
  default Tensor hardtanh() { return hardtanh(-1.0, 1.0); }
  /** x clamped to [minVal, maxVal], its gradient 0 at the bounds (F.hardtanh); integer tensors keep their dtype. */
  default Tensor hardtanh(double minVal, double maxVal) { return hardtanhAs("hardtanh", Ops.HARDTANH, minVal, maxVal); }
  /** hardtanh(0, 6). */
  default Tensor relu6() { return hardtanhAs("relu6", Ops.RELU6, 0, 6); }

  private Tensor hardtanhAs(String name, Op op, double minVal, double maxVal) {
    TensorImpl t = impl(name);
    if (minVal > maxVal) throw new IllegalArgumentException(name + "(): min_val cannot be greater than max_val");
    DType d = t.dtype();
    if (d == DType.BOOL) throw new IllegalArgumentException(name + "(): Bool inputs not supported for hardtanh");
    if (d.isFloatingPoint()) {
      d.checkFits(name, minVal);  // float16's -1e5 is refused, as PyTorch's checked conversion
      d.checkFits(name, maxVal);
    } else {
      // PyTorch truncates the bounds to int64 (checked: NaN and 1e30 refused), then clamps with them
      // (checked into d: int8's 200.7 and -129 are refused; they wrapped to -56 and 127)
      DType.INT64.checkFits(name, minVal);
      DType.INT64.checkFits(name, maxVal);
      minVal = (long) minVal;
      maxVal = (long) maxVal;
      if (d == DType.UINT8 && (minVal < 0 || maxVal < 0)) {
        throw new IllegalArgumentException(name + "(): cannot do hardtanh on an unsigned type with negative limits");
      }
      d.checkFits(name, (long) minVal);
      d.checkFits(name, (long) maxVal);
    }
    long[] exact = {(long) minVal, (long) maxVal, 1, 1};
    return Tensor.wrap(ElementwiseOps.run(op, name, null, new double[] {minVal, maxVal, 1, 1}, exact, Operand.of(t)));
  }

  /** a · sigmoid(b), a and b the halves of dim (F.glu), which must have an even size. */
  default Tensor glu(int dim) { return Activations.glu(self(), dim); }
  default Tensor glu() { return glu(-1); }
  /** x where x > 0, weight · x elsewhere (F.prelu): weight has one element or one per channel (dim 1). */
  default Tensor prelu(Tensor weight) { return Activations.prelu(self(), weight); }
  /** torch.logit: log(x / (1 − x)), the inverse of sigmoid. */
  default Tensor logit() { return Activations.logit(self(), null); }
  /** torch.logit(eps): of x clamped to [eps, 1 − eps] (its gradient 0 outside). */
  default Tensor logit(double eps) { return Activations.logit(self(), eps); }
}
