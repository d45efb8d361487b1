package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies x above 0, negativeSlope · x elsewhere (torch.nn.LeakyReLU(negative_slope)). */
public final class LeakyReLU extends Module {
  private final double negativeSlope;

  /** LeakyReLU(negativeSlope = 0.01), PyTorch's default. */
  public LeakyReLU() {
    this(0.01);
  }

  public LeakyReLU(double negativeSlope) {
    this.negativeSlope = negativeSlope;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.leakyRelu(negativeSlope);
  }

  @Override
  protected String extraRepr() {
    return "negative_slope=" + ModuleRepr.f(negativeSlope);
  }
}
