package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.CrossEntropyLoss(weight, ignore_index, reduction, label_smoothing): log-softmax over the
 * class dim then the negative log-likelihood of class indices (or class probabilities) (crossEntropy);
 * weight, one per class or null, is the buffer "weight".
 */
public final class CrossEntropyLoss extends WeightedLoss {
  private final long ignoreIndex;
  private final double labelSmoothing;

  public CrossEntropyLoss() {
    this(null, -100, "mean", 0.0);
  }

  public CrossEntropyLoss(Tensor weight, long ignoreIndex, String reduction, double labelSmoothing) {
    super(weight, reduction);
    this.ignoreIndex = ignoreIndex;
    this.labelSmoothing = labelSmoothing;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.crossEntropy(input, target, weight(), ignoreIndex, labelSmoothing, fold);
  }
}
