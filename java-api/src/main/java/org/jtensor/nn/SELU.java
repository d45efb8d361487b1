package org.jtensor.nn;

import org.jtensor.Tensor;

/** scale · elu(x, alpha) with SELU's constants (torch.nn.SELU). */
public final class SELU extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.selu();
  }
}
