package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.GaussianNLLLoss(full, eps, reduction): the Gaussian negative log-likelihood of target
 * under mean input and variance var (gaussianNllLoss), eps 1e-6; forward(input, target, var).
 */
public final class GaussianNLLLoss extends ThreeInputLoss {
  private final boolean full;
  private final double eps;

  public GaussianNLLLoss() {
    this(false, 1e-6, "mean");
  }

  public GaussianNLLLoss(boolean full, double eps, String reduction) {
    super(reduction, "input", "target", "var");
    this.full = full;
    this.eps = eps;
  }

  @Override
  public Tensor forward(Tensor input, Tensor target, Tensor var) {
    return Functional.gaussianNllLoss(input, target, var, full, eps, fold);
  }

  /** One variance for every expectation, as PyTorch's float var. */
  public Tensor forward(Tensor input, Tensor target, double var) {
    return Functional.gaussianNllLoss(input, target, var, full, eps, fold);
  }
}
