package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.SoftMarginLoss(reduction): log(1 + e^(−y·x)) with y ±1 (softMarginLoss). */
public final class SoftMarginLoss extends Loss {
  public SoftMarginLoss() {
    this("mean");
  }

  public SoftMarginLoss(String reduction) {
    super(reduction, "input", "target");
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.softMarginLoss(input, target, fold);
  }
}
