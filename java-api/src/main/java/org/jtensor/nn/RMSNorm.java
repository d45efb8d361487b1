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
    int n = normalizedShape.length, dim = input.dim();
    if (n == 0) {
      throw new IllegalArgumentException(op + "(): Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
          + "element, but got normalized_shape = []");
    }
    if (weight != null && !java.util.Arrays.equals(weight.shape(), normalizedShape)) {
      throw new IllegalArgumentException(op + "(): Expected weight to be of same shape as normalized_shape, but got weight of shape "
          + WindowArgs.shape(weight.shape()) + " and normalized_shape = " + WindowArgs.shape(normalizedShape));
    }
    long[] shape = input.shape();
    boolean matches = dim >= n;
    for (int i = 0; matches && i < n; i++) matches = shape[dim - n + i] == normalizedShape[i];
    if (!matches) {
      throw new IllegalArgumentException(op + "(): Given normalized_shape=" + WindowArgs.shape(normalizedShape)
          + ", expected input with shape [*, " + WindowArgs.sizes(normalizedShape) + "], but got input of size" + WindowArgs.shape(shape));
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
}
