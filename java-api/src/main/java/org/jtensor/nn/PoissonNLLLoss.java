package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.PoissonNLLLoss(log_input, full, eps, reduction): the Poisson negative log-likelihood
 * (poissonNllLoss) of a log rate (logInput, the default) or a rate; full adds Stirling's term; eps 1e-8.
 */
public final class PoissonNLLLoss extends Loss {
  private final boolean logInput, full;
  private final double eps;

  public PoissonNLLLoss() {
    this(true, false, 1e-8, "mean");
  }

  public PoissonNLLLoss(boolean logInput, boolean full, double eps, String reduction) {
    super(reduction, "input", "target");
    this.logInput = logInput;
    this.full = full;
    this.eps = eps;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target) {
    return Functional.poissonNllLoss(input, target, logInput, full, eps, fold);
  }
}
