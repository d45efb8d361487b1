package org.jtensor.nn;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * F.lp_pool1d/2d as PyTorch composes them: (Σ over each window of x^p)^(1/p), from avg_pool of
 * x^p times the window's size, through sign(s)·relu(|s|) (so an all-zero window's gradient is
 * NaN, as PyTorch's). No padding; stride null is the kernel.
 */
final class LpPooling {
  private LpPooling() {}

  static Tensor lpPool(int nsp, Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    String op = "lpPool" + nsp + "d";
    long[] k = WindowArgs.expand(op, "kernel_size", kernelSize, nsp);
    long window = 1;
    for (long v : k) window *= v;
    long[] zero = new long[nsp];
    try (TensorScope s = TensorScope.open()) {
      Tensor powered = input.pow(normType);
      Tensor mean = nsp == 1 ? Functional.avgPool1d(powered, k, stride, zero, ceilMode, true)
          : Functional.avgPool2d(powered, k, stride, zero, ceilMode, true);
      return s.keep(mean.sign().mul(mean.abs().relu()).mul((double) window).pow(1.0 / normType));
    }
  }
}
