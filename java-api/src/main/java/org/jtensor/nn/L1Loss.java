package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.L1Loss(reduction): the mean (or sum) absolute error (l1Loss). */
public final class L1Loss extends Loss {
  public L1Loss() {
    this("mean");
  }

  public L1Loss(String reduction) {
    super(reduction, "input", "target");
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.l1Loss(input, target, fold);
  }
}
