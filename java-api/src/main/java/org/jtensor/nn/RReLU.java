package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * torch.nn.RReLU(lower = 1/8, upper = 1/3): in training each non-positive input is scaled by a
 * slope drawn from U(lower, upper) (the generator's, the default one unless given); in eval mode
 * by their mean.
 */
public final class RReLU extends Module {
  private final double lower, upper;
  private final Generator g;

  public RReLU() {
    this(1.0 / 8, 1.0 / 3);
  }

  public RReLU(double lower, double upper) {
    this(lower, upper, Generator.defaultGenerator());
  }

  public RReLU(double lower, double upper, Generator g) {
    this.lower = lower;
    this.upper = upper;
    this.g = g;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.rrelu(input, lower, upper, isTraining(), g);
  }

  @Override
  protected String extraRepr() {
    return "lower=" + ModuleRepr.f(lower) + ", upper=" + ModuleRepr.f(upper);
  }
}
