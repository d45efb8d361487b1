package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.MultiMarginLoss(p, margin, weight, reduction): the multi-class hinge loss of int64 class
 * indices (multiMarginLoss), p 1 or 2 (default 1), margin 1; weight, 1-D or null, is the buffer "weight".
 */
public final class MultiMarginLoss extends WeightedLoss {
  private final int p;
  private final double margin;

  public MultiMarginLoss() {
    this(1, 1.0, null, "mean");
  }

  public MultiMarginLoss(int p, double margin, Tensor weight, String reduction) {
    super(checked(p, weight), reduction);
    this.p = p;
    this.margin = margin;
  }

  /** PyTorch's constructor checks, before the weight is registered (a refused one stays the caller's). */
  private static Tensor checked(int p, Tensor weight) {
    if (p != 1 && p != 2) throw new IllegalArgumentException("MultiMarginLoss(): only p == 1 and p == 2 supported");
    if (weight != null && weight.dim() != 1) {
      throw new IllegalArgumentException("MultiMarginLoss(): MultiMarginLoss: expected weight to be None or 1D tensor, got " + weight.dim()
          + "D instead");
    }
    return weight;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.multiMarginLoss(input, target, p, margin, weight(), fold);
  }
}
