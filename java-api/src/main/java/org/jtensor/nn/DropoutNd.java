package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * PyTorch's _DropoutNd: the channel and alpha dropouts' probability p (0.5 by default, refused
 * outside [0, 1] at construction) and generator (the default one unless given); the identity in
 * eval mode.
 */
public abstract class DropoutNd extends Module {
  protected final double p;
  protected final Generator g;

  protected DropoutNd(double p, Generator g) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(getClass().getSimpleName() + "(): dropout probability has to be between 0 and 1, but got " + p);
    }
    this.p = p;
    this.g = g;
  }

  public double p() {
    return p;
  }

  @Override
  public Tensor forward(Tensor input) {
    return drop(input, isTraining());
  }

  /** The functional form this layer applies. */
  protected abstract Tensor drop(Tensor input, boolean training);

  @Override
  protected String extraRepr() {
    return "p=" + ModuleRepr.f(p) + ", inplace=False";
  }
}
