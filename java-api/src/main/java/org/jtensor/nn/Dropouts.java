package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ops.ElementwiseChecks;

/**
 * The dropouts beside Tensor.dropout, as ATen's _dropout_impl: feature dropout (whole channels:
 * one draw per [N, C] entry, broadcast over the rest) and alpha dropout (SELU's: dropped values go
 * to SELU's negative saturation and an affine map keeps mean 0 and variance 1), each elementwise
 * or by channel. The mask is a tensor of 0s and 1s drawn from the generator in the input's dtype.
 */
final class Dropouts {
  /** SELU's −λ·α, the value a dropped unit takes before the affine correction. */
  static final double ALPHA = 1.7580993408473766;

  private Dropouts() {}

  static void checkP(String op, double p) {
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException(op + "(): dropout probability has to be between 0 and 1, but got " + p);
  }

  /** F.dropout1d: [N, C, L] or unbatched [C, L]. */
  static Tensor dropout1d(Tensor x, double p, boolean training, Generator g) {
    checkP("dropout1d", p);
    if (x.dim() != 2 && x.dim() != 3) {
      throw new IllegalArgumentException("dropout1d(): Expected 2D or 3D input, but received a " + x.dim() + "D input. Note that dropout1d "
          + "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch "
          + "dimension (i.e. 2D or 3D inputs).");
    }
    return x.dim() == 3 ? drop("dropout1d", x, p, training, true, false, g) : unbatched("dropout1d", x, p, training, g);
  }

  /**
   * F.dropout2d: [N, C, H, W]; as PyTorch's, a 3-D input is read as [N, C, L] (not unbatched) and
   * any other rank is taken too (PyTorch warns that this is deprecated).
   */
  static Tensor dropout2d(Tensor x, double p, boolean training, Generator g) {
    checkP("dropout2d", p);
    return drop("dropout2d", x, p, training, true, false, g);
  }

  /** F.dropout3d: [N, C, D, H, W] or unbatched [C, D, H, W]; other ranks are taken as unbatched, as PyTorch's (with its warning). */
  static Tensor dropout3d(Tensor x, double p, boolean training, Generator g) {
    checkP("dropout3d", p);
    return x.dim() == 5 ? drop("dropout3d", x, p, training, true, false, g) : unbatched("dropout3d", x, p, training, g);
  }

  private static Tensor unbatched(String op, Tensor x, double p, boolean training, Generator g) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(drop(op, x.unsqueeze(0), p, training, true, false, g).squeeze(0));
    }
  }

  /**
   * The shared body: the input itself (a new handle) when not training, p is 0 or it is empty; zeros
   * of its dtype when p is 1; else x·mask/(1 − p), or alpha dropout's x·mask·a + b.
   */
  static Tensor drop(String op, Tensor x, double p, boolean training, boolean feature, boolean alpha, Generator g) {
    checkP(op, p);
    if (!training || p == 0 || x.numel() == 0) return x.dropout(0, false, g);  // Tensor.dropout's identity: x itself
    if (feature && x.dim() < 2) throw new IllegalArgumentException(op + "(): Feature dropout requires at least 2 dimensions in the input");
    if (p == 1) {  // input · zeros({}): an integer input keeps its dtype
      try (Tensor zero = Tensor.zeros(new long[0], x.dtype(), x.device())) {
        return x.mul(zero);
      }
    }
    if (!x.dtype().isFloatingPoint()) throw new IllegalArgumentException(op + "(): " + ElementwiseChecks.cannotCast(DType.DEFAULT_FLOAT, x.dtype()));
    long[] noise = x.shape();
    if (feature) for (int d = 2; d < noise.length; d++) noise[d] = 1;
    try (TensorScope s = TensorScope.open()) {
      Tensor keep = Tensor.empty(noise, x.dtype(), x.device()).bernoulli(1 - p, g);
      return s.keep(masked(x, keep, p, alpha));
    }
  }

  /** x through a given 0/1 mask (broadcast against x), in ATen's order: the mask scaled in x's dtype first. */
  static Tensor masked(Tensor x, Tensor keep, double p, boolean alpha) {
    try (TensorScope s = TensorScope.open()) {
      if (!alpha) return s.keep(x.mul(keep.div(1 - p)));
      double a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
      Tensor b = keep.sub(1.0).mul(ALPHA * a).add(ALPHA * a * p);
      return s.keep(x.mul(keep.mul(a)).add(b));
    }
  }
}
