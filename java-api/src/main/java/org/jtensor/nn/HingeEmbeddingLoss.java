package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.HingeEmbeddingLoss(margin, reduction): x where y is 1, max(0, margin − x) where y is −1 (hingeEmbeddingLoss); margin 1.0 by default. */
public final class HingeEmbeddingLoss extends Loss {
  private final double margin;

  public HingeEmbeddingLoss() {
    this(1.0, "mean");
  }

  public HingeEmbeddingLoss(double margin, String reduction) {
    super(reduction, "input", "target");
    this.margin = margin;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.hingeEmbeddingLoss(input, target, margin, fold);
  }
}
