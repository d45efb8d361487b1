package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.RMSNorm: x / √(mean(x²) + eps) over the last normalizedShape.length dims, times
 * "weight" (ones) when elementwiseAffine, in the input's dtype. As ATen's rms_norm, float16 and
 * bfloat16 are computed in float32 and rounded once at the end (their squares overflow at 256 in
 * float16), and eps null is the machine epsilon of that math type (float32's for them).
 */
public final class RMSNorm extends Module {
  private final long[] normalizedShape;
  private final Double eps;
  private final Tensor weight;

  public RMSNorm(long... normalizedShape) {
    this(normalizedShape, null, true);
  }

  public RMSNorm(long[] normalizedShape, Double eps, boolean elementwiseAffine) {
    if (normalizedShape.length == 0) throw new IllegalArgumentException("RMSNorm(): normalized_shape must not be empty");
    this.normalizedShape = normalizedShape.clone();
    this.eps = eps;
    try {
      weight = elementwiseAffine ? registerParameter("weight", Tensor.ones(normalizedShape, DType.FLOAT32)) : null;
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  @Override
  public Tensor forward(Tensor input) {
    return rmsNorm("RMSNorm.forward", input, normalizedShape, weight, eps);
  }

  /** F.rms_norm, op naming it as the user called it: weight (or null) shaped as normalizedShape, the input's last dims. */
  static Tensor rmsNorm(String op, Tensor input, long[] normalizedShape, Tensor weight, Double eps) {
    Normalization.checkNormalizedShape(op, normalizedShape, weight, null);
    int n = normalizedShape.length, dim = input.dim();
    // PyTorch 2.13's F.rms_norm words, "[*2, 4]" included
    if (dim < n) throw new IllegalArgumentException(op + "(): Input tensor must have at least " + n + " dimensions, but got " + dim);
    if (!Normalization.endsWith(input.shape(), normalizedShape)) {
      throw new IllegalArgumentException(op + "(): Given normalized_shape=" + WindowArgs.shape(normalizedShape) + ", expected input with shape "
          + WindowArgs.shape(normalizedShape).replace("[", "[*") + ", but got input of size" + WindowArgs.shape(input.shape()));
    }
    int[] dims = new int[n];
    for (int i = 0; i < n; i++) dims[i] = dim - n + i;
    try (TensorScope s = TensorScope.open()) {
      boolean half = input.dtype() == DType.FLOAT16 || input.dtype() == DType.BFLOAT16;
      Tensor x = half ? input.to(DType.FLOAT32) : input;
      double e = eps != null ? eps : machineEpsilon(x.dtype());
      Tensor y = x.mul(x.square().mean(dims, true).add(e).rsqrt());
      if (weight != null) y = y.mul(weight);
      return s.keep(y.dtype() == input.dtype() ? y : y.to(input.dtype()));
    }
  }

  /** std::numeric_limits of dtype's epsilon (torch.finfo(dtype).eps). */
  static double machineEpsilon(DType dtype) {
    switch (dtype) {
      case FLOAT64: return Math.ulp(1.0);
      case FLOAT16: return 0.0009765625;
      case BFLOAT16: return 0.0078125;
      default: return Math.ulp(1.0f);
    }
  }

  public Tensor weight() {
    return weight;
  }

  @Override
  protected String extraRepr() {
    return org.jtensor.core.PyRepr.tuple(normalizedShape) + ", eps=" + (eps == null ? "None" : ModuleRepr.f(eps)) + ", elementwise_affine="
        + ModuleRepr.b(weight != null);
  }
}
