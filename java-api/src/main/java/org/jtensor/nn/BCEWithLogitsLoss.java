package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.BCEWithLogitsLoss(weight, reduction, pos_weight): sigmoid and binary cross entropy in one
 * stable step (binaryCrossEntropyWithLogits); weight and posWeight, each null or broadcast to the
 * input, are the buffers "weight" and "pos_weight".
 */
public final class BCEWithLogitsLoss extends WeightedLoss {
  private final Tensor posWeight;

  public BCEWithLogitsLoss() {
    this(null, "mean", null);
  }

  public BCEWithLogitsLoss(Tensor weight, String reduction, Tensor posWeight) {
    super(weight, reduction);
    try {
      this.posWeight = registerWeight("pos_weight", posWeight);
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public Tensor posWeight() {
    return posWeight;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.binaryCrossEntropyWithLogits(input, target, weight(), posWeight, fold);
  }
}
