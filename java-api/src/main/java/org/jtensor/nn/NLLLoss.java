package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.NLLLoss(weight, ignore_index, reduction): the negative log-likelihood of class indices
 * over log-probabilities (nllLoss); weight, one per class or null, is the buffer "weight".
 */
public final class NLLLoss extends WeightedLoss {
  private final long ignoreIndex;

  public NLLLoss() {
    this(null, -100, "mean");
  }

  public NLLLoss(Tensor weight, long ignoreIndex, String reduction) {
    super(weight, reduction);
    this.ignoreIndex = ignoreIndex;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.nllLoss(input, target, weight(), ignoreIndex, fold);
  }
}
