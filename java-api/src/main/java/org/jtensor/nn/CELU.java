package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies max(0, x) + min(0, alpha (e^(x/alpha) - 1)) (torch.nn.CELU(alpha)). */
public final class CELU extends Module {
  private final double alpha;

  /** CELU(alpha = 1.0), PyTorch's default. */
  public CELU() {
    this(1.0);
  }

  public CELU(double alpha) {
    this.alpha = alpha;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.celu(alpha);
  }

  @Override
  protected String extraRepr() {
    return "alpha=" + ModuleRepr.f(alpha);
  }
}
