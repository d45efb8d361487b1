package org.jtensor.nn;

import org.jtensor.Tensor;

/** x - tanh(x) elementwise (torch.nn.Tanhshrink). */
public final class Tanhshrink extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.tanhshrink();
  }
}
