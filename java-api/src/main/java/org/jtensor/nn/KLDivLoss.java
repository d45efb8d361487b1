package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.KLDivLoss(reduction, log_target): the Kullback-Leibler divergence of input
 * log-probabilities from target (klDiv); reduction also 'batchmean', the sum over the batch size
 * (the true KL divergence; 'mean', the default, averages over every element).
 */
public final class KLDivLoss extends Loss {
  private final boolean logTarget;

  public KLDivLoss() {
    this("mean", false);
  }

  public KLDivLoss(String reduction, boolean logTarget) {
    super(reduction, true, "input", "target");
    this.logTarget = logTarget;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.klDiv(input, target, fold == null ? Reduction.SUM : fold, fold == null, logTarget);
  }
}
