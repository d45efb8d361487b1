package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies tanh elementwise (torch.nn.Tanh). */
public final class Tanh extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.tanh();
  }
}
