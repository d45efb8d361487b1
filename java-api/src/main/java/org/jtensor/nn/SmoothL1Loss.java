package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.SmoothL1Loss(reduction, beta): quadratic below beta, then linear (smoothL1Loss); beta 1.0 by default. */
public final class SmoothL1Loss extends Loss {
  private final double beta;

  public SmoothL1Loss() {
    this("mean", 1.0);
  }

  public SmoothL1Loss(String reduction, double beta) {
    super(reduction, "input", "target");
    this.beta = beta;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.smoothL1Loss(input, target, fold, beta);
  }
}
