package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies sigmoid elementwise (torch.nn.Sigmoid). */
public final class Sigmoid extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.sigmoid();
  }
}
