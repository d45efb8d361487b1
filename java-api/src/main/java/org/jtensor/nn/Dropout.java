package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** Zeroes each element with probability p while training and scales the rest by 1/(1−p) (torch.nn.Dropout). */
public final class Dropout extends Module {
  private final double p;
  private final Generator g;

  /** PyTorch's Dropout(): p = 0.5, drawing from the default generator. */
  public Dropout() {
    this(0.5);
  }

  public Dropout(double p) {
    this(p, Generator.defaultGenerator());
  }

  public Dropout(double p, Generator g) {
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("Dropout(): dropout probability has to be between 0 and 1, but got " + p);
    this.p = p;
    this.g = g;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.dropout(p, isTraining(), g);
  }

  @Override
  protected String extraRepr() {
    return "p=" + ModuleRepr.f(p) + ", inplace=False";
  }
}
