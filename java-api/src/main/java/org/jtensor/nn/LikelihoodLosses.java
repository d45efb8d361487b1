package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** The negative log-likelihood losses behind Functional's poissonNllLoss and gaussianNllLoss, as PyTorch composes them. */
final class LikelihoodLosses {
  private LikelihoodLosses() {}

  /**
   * e^x − y·x for a log rate x (logInput), else x − y·log(x + eps); full adds Stirling's
   * y·log y − y + ½·log(2πy) where y > 1 (ATen's poisson_nll_loss).
   */
  static Tensor poissonNllLoss(Tensor input, Tensor target, boolean logInput, boolean full, double eps, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor loss = logInput ? input.exp().sub(target.mul(input)) : input.sub(target.mul(input.add(eps).log()));
      if (full) {
        Tensor stirling = target.mul(target.log()).sub(target).add(target.mul(2 * Math.PI).log().mul(0.5));
        loss = loss.add(Tensor.where(target.le(1.0), 0.0, stirling));
      }
      return s.keep(Losses.fold(loss, reduction));
    }
  }

  /**
   * ½·(log var + (x − y)²/var) (+ ½·log 2π when full), var clamped below at eps for the value
   * while its gradient passes as if unclamped (PyTorch clamps a clone under no_grad). var shaped as
   * the input, or one dim short of it, or differing from it in one dim of size 1 (homoscedastic).
   */
  static Tensor gaussianNllLoss(Tensor input, Tensor target, Tensor var, boolean full, double eps, Reduction reduction) {
    String op = "gaussianNllLoss";
    try (TensorScope s = TensorScope.open()) {
      if (var.lt(0.0).any().item() != 0) throw new IllegalArgumentException(op + "(): var has negative entry/entries");
      long[] in = input.shape(), vs = var.shape();
      if (!Arrays.equals(in, vs)) {
        if (in.length > 0 && Arrays.equals(Arrays.copyOf(in, in.length - 1), vs)) {
          var = var.unsqueeze(-1);
        } else if (in.length != vs.length || mismatchedSizes(in, vs) != 1) {
          throw new IllegalArgumentException(op + "(): var is of incorrect size");
        }
      }
      Tensor v = var.detach(), clamped = Tensor.where(v.lt(eps), var.sub(v).add(eps), var);  // eps exactly, gradient 1
      Tensor d = input.sub(target);
      Tensor loss = clamped.log().add(d.mul(d).div(clamped)).mul(0.5);
      if (full) loss = loss.add(0.5 * Math.log(2 * Math.PI));
      return s.keep(Losses.fold(loss, reduction));
    }
  }

  /** One variance for every expectation: var·ones_like(input), as PyTorch's for a float var. */
  static Tensor gaussianNllLoss(Tensor input, Tensor target, double var, boolean full, double eps, Reduction reduction) {
    if (var < 0) throw new IllegalArgumentException("gaussianNllLoss(): var has negative entry/entries");
    try (TensorScope s = TensorScope.open()) {
      return s.keep(gaussianNllLoss(input, target, Tensor.fullLike(input, var), full, eps, reduction));
    }
  }

  /** PyTorch's count: the sum of var's sizes where they differ from the input's (one dim of size 1 passes). */
  private static long mismatchedSizes(long[] in, long[] vs) {
    long sum = 0;
    for (int k = 0; k < in.length; k++) if (in[k] != vs[k]) sum += vs[k];
    return sum;
  }
}
