package org.jtensor.nn;

import org.jtensor.Tensor;

/** relu6(x + 3) / 6 elementwise (torch.nn.Hardsigmoid). */
public final class Hardsigmoid extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.hardsigmoid();
  }
}
