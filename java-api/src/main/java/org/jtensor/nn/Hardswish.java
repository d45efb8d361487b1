package org.jtensor.nn;

import org.jtensor.Tensor;

/** x · relu6(x + 3) / 6 elementwise (torch.nn.Hardswish). */
public final class Hardswish extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.hardswish();
  }
}
