package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.CosineEmbeddingLoss(margin, reduction): 1 − cos(x1, x2) where y is 1, max(0, cos(x1, x2) − margin) where y is −1 (cosineEmbeddingLoss), margin 0.0 by default; forward(input1, input2, target). */
public final class CosineEmbeddingLoss extends ThreeInputLoss {
  private final double margin;

  public CosineEmbeddingLoss() {
    this(0.0, "mean");
  }

  public CosineEmbeddingLoss(double margin, String reduction) {
    super(reduction, "input1", "input2", "target");
    this.margin = margin;
  }

  @Override
  public Tensor forward(Tensor input1, Tensor input2, Tensor target) {
    return Functional.cosineEmbeddingLoss(input1, input2, target, margin, fold);
  }
}
