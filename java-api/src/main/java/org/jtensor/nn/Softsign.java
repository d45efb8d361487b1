package org.jtensor.nn;

import org.jtensor.Tensor;

/** x / (1 + |x|) elementwise (torch.nn.Softsign). */
public final class Softsign extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.softsign();
  }
}
