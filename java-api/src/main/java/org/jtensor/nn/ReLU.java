package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies relu elementwise (torch.nn.ReLU). */
public final class ReLU extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.relu();
  }
}
