package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies silu elementwise (torch.nn.SiLU). */
public final class SiLU extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.silu();
  }
}
