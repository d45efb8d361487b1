package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.MultiLabelSoftMarginLoss(weight, reduction): each class's logistic loss averaged over
 * the classes (multilabelSoftMarginLoss); weight, one per class or null, is the buffer "weight".
 */
public final class MultiLabelSoftMarginLoss extends WeightedLoss {

  public MultiLabelSoftMarginLoss() {
    this(null, "mean");
  }

  public MultiLabelSoftMarginLoss(Tensor weight, String reduction) {
    super(weight, reduction);
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.multilabelSoftMarginLoss(input, target, weight(), fold);
  }
}
