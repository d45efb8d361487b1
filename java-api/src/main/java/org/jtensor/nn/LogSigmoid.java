package org.jtensor.nn;

import org.jtensor.Tensor;

/** log(sigmoid(x)) elementwise (torch.nn.LogSigmoid). */
public final class LogSigmoid extends Module {
  @Override
  public Tensor forward(Tensor input) {
    return input.logSigmoid();
  }
}
