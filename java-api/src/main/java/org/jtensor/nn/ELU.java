package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies alpha (e^x - 1) at and below 0, x above (torch.nn.ELU(alpha)). */
public final class ELU extends Module {
  private final double alpha;

  /** ELU(alpha = 1.0), PyTorch's default. */
  public ELU() {
    this(1.0);
  }

  public ELU(double alpha) {
    this.alpha = alpha;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.elu(alpha);
  }

  @Override
  protected String extraRepr() {
    return "alpha=" + ModuleRepr.f(alpha);
  }
}
