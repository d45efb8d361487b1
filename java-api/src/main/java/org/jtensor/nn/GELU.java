package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies gelu elementwise (torch.nn.GELU). */
public final class GELU extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.gelu();
  }

  @Override
  protected String extraRepr() {
    return "approximate='none'";
  }
}
