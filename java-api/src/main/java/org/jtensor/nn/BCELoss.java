package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.BCELoss(weight, reduction): binary cross entropy of probabilities (binaryCrossEntropy); weight, broadcast to the input or null, is the buffer "weight". */
public final class BCELoss extends WeightedLoss {

  public BCELoss() {
    this(null, "mean");
  }

  public BCELoss(Tensor weight, String reduction) {
    super(weight, reduction);
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.binaryCrossEntropy(input, target, weight(), fold);
  }
}
