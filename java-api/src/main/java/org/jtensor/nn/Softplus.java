package org.jtensor.nn;

import org.jtensor.Tensor;

/** log(1 + e^(beta x)) / beta, x itself where beta x > threshold (torch.nn.Softplus(beta, threshold)). */
public final class Softplus extends Module {
  private final double beta;
  private final double threshold;

  /** Softplus(beta = 1, threshold = 20), PyTorch's default. */
  public Softplus() {
    this(1.0, 20.0);
  }

  public Softplus(double beta, double threshold) {
    this.beta = beta;
    this.threshold = threshold;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.softplus(beta, threshold);
  }

  @Override
  protected String extraRepr() {
    return "beta=" + ModuleRepr.f(beta) + ", threshold=" + ModuleRepr.f(threshold);
  }
}
