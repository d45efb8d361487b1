package org.jtensor.nn;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.LocalResponseNorm(size, alpha = 1e-4, beta = 0.75, k = 1): each element over
 * (k + alpha · mean of the squares of size neighbouring channels)^beta, the window zero-padded
 * (size/2 channels before, (size − 1)/2 after), as torch.nn.functional composes it.
 */
public final class LocalResponseNorm extends Module {
  private final long size;
  private final double alpha, beta, k;

  public LocalResponseNorm(long size) {
    this(size, 1e-4, 0.75, 1.0);
  }

  public LocalResponseNorm(long size, double alpha, double beta, double k) {
    this.size = size;
    this.alpha = alpha;
    this.beta = beta;
    this.k = k;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.localResponseNorm(input, size, alpha, beta, k);
  }

  /** F.local_response_norm over dim 1 of [N, C, *]: avg_pool2d (3-D input) or avg_pool3d of the padded squares. */
  static Tensor localResponseNorm(Tensor input, long size, double alpha, double beta, double k) {
    int dim = input.dim();
    if (dim < 3) throw new IllegalArgumentException("localResponseNorm(): Expected 3D or higher dimensionality input (got " + dim + " dimensions)");
    if (input.numel() == 0) return input.view(input.shape());
    long[] sizes = input.shape();
    long[] one = {1};
    try (TensorScope s = TensorScope.open()) {
      Tensor div = input.mul(input);
      if (dim == 3) {
        div = Functional.pad(div.unsqueeze(1), 0, 0, size / 2, (size - 1) / 2);
        div = Functional.avgPool2d(div, new long[] {size, 1}, one, new long[] {0}, false, true).squeeze(1);
      } else {
        div = Functional.pad(div.view(sizes[0], 1, sizes[1], sizes[2], -1), 0, 0, 0, 0, size / 2, (size - 1) / 2);
        div = Functional.avgPool3d(div, new long[] {size, 1, 1}, one, new long[] {0}, false, true).squeeze(1).view(sizes);
      }
      return s.keep(input.div(div.mul(alpha).add(k).pow(beta)));
    }
  }

  @Override
  protected String extraRepr() {
    return size + ", alpha=" + ModuleRepr.f(alpha) + ", beta=" + ModuleRepr.f(beta) + ", k=" + ModuleRepr.f(k);
  }
}
