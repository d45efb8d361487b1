package org.jtensor.nn;

import org.jtensor.Tensor;

/** softmin along dim (torch.nn.Softmin): softmax(−x), small inputs getting the large weights. */
public final class Softmin extends Module {
  private final int dim;

  public Softmin(int dim) {
    this.dim = dim;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.softmin(input, dim);
  }

  @Override
  protected String extraRepr() {
    return "dim=" + dim;
  }
}
