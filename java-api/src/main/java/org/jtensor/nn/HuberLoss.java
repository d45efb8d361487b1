package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.HuberLoss(reduction, delta): quadratic up to delta, then linear with slope delta (huberLoss); delta 1.0 by default. */
public final class HuberLoss extends Loss {
  private final double delta;

  public HuberLoss() {
    this("mean", 1.0);
  }

  public HuberLoss(String reduction, double delta) {
    super(reduction, "input", "target");
    this.delta = delta;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.huberLoss(input, target, fold, delta);
  }
}
