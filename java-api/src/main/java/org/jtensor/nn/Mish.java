package org.jtensor.nn;

import org.jtensor.Tensor;

/** x · tanh(softplus(x)) elementwise (torch.nn.Mish). */
public final class Mish extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.mish();
  }
}
