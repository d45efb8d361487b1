package org.jtensor;

import org.jtensor.core.Shapes;

/** The activations composed of other ops (glu, prelu, logit), with PyTorch's argument checks; autograd differentiates the composition. */
final class Activations {
  private Activations() {}

  /** a · sigmoid(b), a and b the first and second halves of dim. */
  static Tensor glu(Tensor x, int dim) {
    if (x.dim() == 0) throw new IllegalArgumentException("glu(): glu does not support scalars because halving size must be even");
    int d = Shapes.wrapDim("glu", dim, x.dim());
    long n = x.size(d);
    if (n % 2 != 0) throw new IllegalArgumentException("glu(): Halving dimension must be even, but dimension " + d + " is size " + n);
    // floating types only (after the dim checks), as PyTorch's glu_cpu: an int64 tensor gave a float32 result
    if (!x.dtype().isFloatingPoint()) throw org.jtensor.core.ScalarTypes.notImplemented("glu", "glu", x.dtype());
    try (Tensor a = x.narrow(d, 0, n / 2); Tensor b = x.narrow(d, n / 2, n / 2); Tensor gate = b.sigmoid()) {
      return a.mul(gate);
    }
  }

  /** x where x > 0, weight · x elsewhere; weight one element, or one per channel (dim 1) broadcast over the rest. */
  static Tensor prelu(Tensor x, Tensor weight) {
    if (weight == null) throw new IllegalArgumentException("prelu(): expected a Tensor weight, got null");
    if (weight.dim() > 1) throw new IllegalArgumentException("prelu(): Expected `weight` to be a scalar or 1D tensor, but got: ndim = " + weight.dim());
    if (x.dtype() != weight.dtype()) {
      throw new IllegalArgumentException("prelu(): Type promoting not supported. Got " + org.jtensor.core.ScalarTypes.name(x.dtype()) + " and " + org.jtensor.core.ScalarTypes.name(weight.dtype()));
    }
    if (!x.dtype().isFloatingPoint()) throw org.jtensor.core.ScalarTypes.notImplemented("prelu", "prelu", x.dtype());
    long channels = x.dim() >= 2 ? x.size(1) : 1;
    long n = weight.numel();
    if (n != 1 && n != channels) {
      throw new IllegalArgumentException("prelu(): Mismatch of parameter numbers and input channel size. Found parameter numbers = " + n
          + " and channel size = " + channels + ".");
    }
    long[] shape = new long[Math.max(x.dim(), 1)];
    java.util.Arrays.fill(shape, 1);
    if (n != 1) shape[1] = n;
    try (Tensor w = weight.reshape(x.dim() == 0 ? new long[0] : shape); Tensor positive = x.gt(0.0); Tensor scaled = w.mul(x)) {
      return Tensor.where(positive, x, scaled);
    }
  }

  /**
   * log(z) − log1p(−z) (PyTorch's log(z / (1 − z)), whose gradient 1 / (z(1 − z)) this one's is also
   * at 0 and 1), z = x clamped to [eps, 1 − eps] when eps is given: below eps reads eps even where
   * eps > 1 − eps, as PyTorch's kernel. Integers and bool give float32. float16 and bfloat16 round
   * each step of log(z / (1 − z)) to their dtype, as PyTorch's CPU kernel does.
   */
  static Tensor logit(Tensor x, Double eps) {
    DType dt = Tensor.implOf(x, "logit").dtype(), out = dt.isFloatingPoint() ? dt : DType.FLOAT32;
    try (TensorScope s = TensorScope.open()) {
      Tensor z = x.to(out);
      if (eps != null) {
        double lo = out == DType.FLOAT32 ? (float) (double) eps : eps, hi = out == DType.FLOAT32 ? 1f - (float) lo : 1 - lo;
        z = Tensor.where(z.lt(lo), lo, Tensor.where(z.gt(hi), hi, z));
      }
      return s.keep(out.itemSize() == 2 ? z.div(z.neg().add(1L)).log() : z.log().sub(z.neg().log1p()));
    }
  }
}
