package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** The activations that draw: rrelu's random slopes and gumbel_softmax's Gumbel noise, from the generator given. */
final class RandomActivations {
  private RandomActivations() {}

  /**
   * F.rrelu: in training each x ≤ 0 is scaled by its own slope drawn from U(lower, upper) (ATen's
   * rrelu_with_noise; the gradient is that slope); otherwise leaky ReLU with the mean slope.
   */
  static Tensor rrelu(Tensor x, double lower, double upper, boolean training, Generator g) {
    if (!(lower <= upper)) throw new IllegalArgumentException("rrelu(): Lower bound should be less than or equal to the upper bound");
    if (!x.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException("rrelu(): \"" + (training ? "rrelu_with_noise_out_cpu" : "leaky_relu_cpu") + "\" not implemented for '"
          + x.dtype() + "'");
    }
    if (!training) return x.leakyRelu((lower + upper) / 2);
    try (TensorScope s = TensorScope.open()) {
      Tensor slopes = Tensor.empty(x.shape(), x.dtype(), x.device()).uniform_(lower, upper, g);
      return s.keep(withSlopes(x, slopes));
    }
  }

  /** x times its slope where x ≤ 0, x elsewhere (rrelu with the slopes given). */
  static Tensor withSlopes(Tensor x, Tensor slopes) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(x.mul(Tensor.where(x.le(0.0), slopes, 1.0)));
    }
  }

  /**
   * F.gumbel_softmax: softmax((logits + G) / tau) along dim, G standard Gumbel noise (−log of an
   * exponential draw, made from a float64 uniform); hard: the one-hot of its argmax, with the soft
   * sample's gradient (straight through).
   */
  static Tensor gumbelSoftmax(Tensor logits, double tau, boolean hard, int dim, Generator g) {
    if (!logits.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("gumbelSoftmax(): Exponential distribution is a continuous probability distribution. dtype must be a "
          + "floating point but you specified " + logits.dtype());
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor u = Tensor.empty(logits.shape(), DType.FLOAT64, logits.device()).uniform_(0, 1, g);
      Tensor gumbels = u.neg().log1p().neg().log().neg().to(logits.dtype());  // −log(−log(1 − u)), u in [0, 1)
      return s.keep(withNoise(logits, gumbels, tau, hard, dim));
    }
  }

  /** gumbel_softmax with the noise given. */
  static Tensor withNoise(Tensor logits, Tensor gumbels, double tau, boolean hard, int dim) {
    try (TensorScope s = TensorScope.open()) {
      Tensor soft = logits.add(gumbels).div(tau).softmax(dim);
      if (!hard) return s.keep(soft);
      Tensor oneHot = Tensor.zerosLike(logits).scatter(dim, soft.argmax(dim, true), 1.0);
      return s.keep(oneHot.sub(soft.detach()).add(soft));
    }
  }
}
