package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MSELoss(reduction): the mean (or sum) squared error (mseLoss). */
public final class MSELoss extends Loss {
  public MSELoss() {
    this("mean");
  }

  public MSELoss(String reduction) {
    super(reduction, "input", "target");
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.mseLoss(input, target, fold);
  }
}
