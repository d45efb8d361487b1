package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * The derivatives of the activations and special functions in {@link Ops}, each PyTorch's
 * (derivatives.yaml and its backward kernels: the same selections at the same boundaries), written
 * with Tensor ops so they run on any device and differentiate again. Intermediates are closed by
 * the backward's scope.
 */
final class ActivationGradients {
  private ActivationGradients() {}

  /** A coefficient as a kernel of dtype d computes it: products of parameters round in float below float64. */
  private static double coefficient(DType d, double a, double b) {
    return d == DType.FLOAT64 ? a * b : (double) ((float) a * (float) b);
  }

  /** elu/selu/celu (params alpha, scale, input_scale): grad·input_scale·(alpha·scale)·e^(x·input_scale) at and below 0, grad·scale above. */
  static Tensor elu(Gradient.Context c, Tensor g) {
    return elu(c, g, c.param(2));
  }

  /** celu's: derivatives.yaml passes input_scale as 1.0 / alpha.toFloat() (the forward's is 1 / alpha in double). */
  static Tensor celu(Gradient.Context c, Tensor g) {
    return elu(c, g, 1.0 / (float) c.param(0));
  }

  private static Tensor elu(Gradient.Context c, Tensor g, double inputScale) {
    Tensor x = c.input(0);
    double alpha = c.param(0), scale = c.param(1);
    Tensor negative = g.mul(inputScale).mul(coefficient(g.dtype(), alpha, scale)).mul(x.mul(inputScale).exp());
    // grad·scale where x is not at or below 0: a NaN x passes grad·scale, as PyTorch's x <= 0 selects
    return Tensor.where(x.le(0.0), negative, g.mul(scale));
  }

  /** 0 at and below -3, grad·(x/3 + 1/2) below 3, grad from 3 on. */
  static Tensor hardswish(Tensor x, Tensor g) {
    return Tensor.where(x.le(-3.0), 0.0, Tensor.where(x.lt(3.0), g.mul(x.div(3.0).add(0.5)), g));
  }

  /** grad·(1/6) strictly inside (-3, 3), 0 elsewhere: PyTorch's 1/6 is a float's in every dtype (1.0f / 6.0f). */
  static Tensor hardsigmoid(Tensor x, Tensor g) {
    return Tensor.where(x.gt(-3.0).logicalAnd(x.lt(3.0)), g.mul((double) (1.0f / 6.0f)), 0.0);
  }

  /** grad·(tanh(softplus(x)) + x·sigmoid(x)·(1 - tanh(softplus(x))²)). */
  static Tensor mish(Tensor x, Tensor g) {
    Tensor t = x.exp().log1p().tanh();
    return g.mul(t.add(x.mul(x.sigmoid()).mul(Gradient.oneMinus(t.mul(t)))));
  }

  /** grad·(max_deriv - sign·z/(1 + z)), z = e^-|x|: 1 - sigmoid(x) computed without overflow, as PyTorch's. */
  static Tensor logSigmoid(Tensor x, Tensor g) {
    Tensor z = x.abs().neg().exp();
    Tensor ratio = z.div(z.add(1.0));
    Tensor negative = x.lt(0.0);
    return g.mul(Tensor.where(negative, Gradient.oneMinus(ratio), ratio));
  }

  /** hardshrink and softshrink: 0 within [-lambd, lambd], grad elsewhere. */
  static Tensor shrink(Tensor x, Tensor g, double lambd) {
    return Tensor.where(x.ge(-lambd).logicalAnd(x.le(lambd)), 0.0, g);
  }

  /** hardtanh: 0 at and beyond the bounds, grad strictly within them (a NaN x passes grad, as PyTorch's). */
  static Tensor hardtanh(Tensor x, Tensor g, double min, double max) {
    Tensor m = opMath(x);
    return Tensor.where(m.le(min).logicalOr(m.ge(max)), 0.0, g);
  }

  /** threshold: 0 at and below the threshold, grad elsewhere. */
  static Tensor threshold(Tensor x, Tensor g, double threshold) {
    return Tensor.where(opMath(x).le(threshold), 0.0, g);
  }

  /**
   * x as PyTorch's threshold and hardtanh backward kernels compare it with their scalars: in float for
   * float16 and bfloat16 (comparing in x's dtype rounded the bound onto x and zeroed its gradient).
   */
  private static Tensor opMath(Tensor x) {
    DType m = x.dtype().opMath();
    return m == x.dtype() ? x : x.to(m);
  }

  /**
   * grad·(π x cos(π x) - sin(π x)) / (x² π), 0 where x² π is 0, as PyTorch's sinc_backward: a tiny x
   * (1e-310, or 1e-20 in float32) underflows x² π to 0 and takes 0, where masking x = 0 gave 0/0 = NaN.
   */
  static Tensor sinc(Tensor x, Tensor g) {
    Tensor px = x.mul(Math.PI);
    Tensor sq = x.mul(x).mul(Math.PI);
    Tensor d = g.mul(px.mul(px.cos()).sub(px.sin())).div(sq);
    return Tensor.where(sq.eq(0.0), 0.0, d);
  }

  /** copysign's self: grad·result/self, 0 where self is 0. */
  static Tensor copysign(Tensor self, Tensor result, Tensor g) {
    return g.mul(Tensor.where(self.eq(0.0), 0.0, result.div(self)));
  }

  /** xlogy's self: grad·xlogy(self ≠ 0, other). */
  static Tensor xlogySelf(Tensor self, Tensor other, Tensor g) {
    return g.mul(self.ne(0.0).to(g.dtype()).xlogy(other));
  }
}
