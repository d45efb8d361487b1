package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MultiLabelMarginLoss(reduction): the multi-label hinge loss, each row's int64 class indices up to the first −1 (multilabelMarginLoss). */
public final class MultiLabelMarginLoss extends Loss {
  public MultiLabelMarginLoss() {
    this("mean");
  }

  public MultiLabelMarginLoss(String reduction) {
    super(reduction, "input", "target");
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.multilabelMarginLoss(input, target, fold);
  }
}
