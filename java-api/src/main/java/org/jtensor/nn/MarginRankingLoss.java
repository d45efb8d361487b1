package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MarginRankingLoss(margin, reduction): max(0, −y·(x1 − x2) + margin) with y ±1 (marginRankingLoss), margin 0.0 by default; forward(input1, input2, target). */
public final class MarginRankingLoss extends ThreeInputLoss {
  private final double margin;

  public MarginRankingLoss() {
    this(0.0, "mean");
  }

  public MarginRankingLoss(double margin, String reduction) {
    super(reduction, "input1", "input2", "target");
    this.margin = margin;
  }

  @Override
  public Tensor forward(Tensor input1, Tensor input2, Tensor target) {
    return Functional.marginRankingLoss(input1, input2, target, margin, fold);
  }
}
