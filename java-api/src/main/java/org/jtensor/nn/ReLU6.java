package org.jtensor.nn;

import org.jtensor.Tensor;

/** min(max(x, 0), 6) elementwise (torch.nn.ReLU6). */
public final class ReLU6 extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.relu6();
  }
}
