package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.TripletMarginLoss(margin, p, eps, swap, reduction): max(0, margin + d(a, p) − d(a, n)) with
 * d the pairwise p-distance (tripletMarginLoss); margin 1 (> 0), p 2, eps 1e-6, no swap by default;
 * forward(anchor, positive, negative).
 */
public final class TripletMarginLoss extends ThreeInputLoss {
  private final double margin, p, eps;
  private final boolean swap;

  public TripletMarginLoss() {
    this(1.0, 2.0, 1e-6, false, "mean");
  }

  public TripletMarginLoss(double margin, double p, double eps, boolean swap, String reduction) {
    super(reduction, "anchor", "positive", "negative");
    if (margin <= 0) {
      throw new IllegalArgumentException("TripletMarginLoss(): TripletMarginLoss: expected margin to be greater than 0, got " + margin + " instead");
    }
    this.margin = margin;
    this.p = p;
    this.eps = eps;
    this.swap = swap;
  }

  @Override
  public Tensor forward(Tensor anchor, Tensor positive, Tensor negative) {
    return Functional.tripletMarginLoss(anchor, positive, negative, margin, p, eps, swap, fold);
  }
}
