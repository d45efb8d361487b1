package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * Normalizes over the trailing dims of normalizedShape (torch.nn.LayerNorm), with a learned scale
 * "weight" (ones) and shift "bias" (zeros) when elementwiseAffine, the shift only when bias too.
 */
public final class LayerNorm extends Module {
  private final int dims;
  private final long[] shape;
  private final double eps;
  private final Tensor weight, bias;

  public LayerNorm(long... normalizedShape) {
    this(normalizedShape, 1e-5);
  }

  public LayerNorm(long[] normalizedShape, double eps) {
    this(normalizedShape, eps, true, true);
  }

  public LayerNorm(long[] normalizedShape, double eps, boolean elementwiseAffine, boolean bias) {
    if (normalizedShape == null) throw new IllegalArgumentException("LayerNorm(): expected a normalized_shape, got null");
    for (long d : normalizedShape) {  // else Tensor.ones refuses it in its own name
      if (d < 0) {
        throw new IllegalArgumentException("LayerNorm(): Trying to create tensor with negative dimension " + d + ": "
            + WindowArgs.shape(normalizedShape));
      }
    }
    if (normalizedShape.length == 0) throw new IllegalArgumentException("LayerNorm(): normalized_shape must not be empty");
    this.dims = normalizedShape.length;
    this.shape = normalizedShape.clone();
    this.eps = eps;
    try {
      weight = elementwiseAffine ? registerParameter("weight", Tensor.ones(normalizedShape, DType.FLOAT32)) : null;
      this.bias = elementwiseAffine && bias ? registerParameter("bias", Tensor.zeros(normalizedShape, DType.FLOAT32)) : null;
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  @Override
  public Tensor forward(Tensor input) {
    if (input == null) throw new IllegalArgumentException("LayerNorm.forward(): expected an input tensor, got null");
    // PyTorch's check; without weight and bias (elementwiseAffine false) nothing else holds the shape
    Normalization.checkInputShape("LayerNorm.forward", input.shape(), shape);
    return Functional.layerNorm(input, dims, weight, bias, eps);
  }

  @Override
  protected String extraRepr() {
    return org.jtensor.core.PyRepr.tuple(shape) + ", eps=" + ModuleRepr.f(eps) + ", elementwise_affine=" + ModuleRepr.b(weight != null) + ", bias="
        + ModuleRepr.b(bias != null);
  }
}
