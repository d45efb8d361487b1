package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.AdaptiveMaxPool2d: the maximum over each of outputSize adaptive windows (Functional.adaptiveMaxPool2d). */
public final class AdaptiveMaxPool2d extends Module {
  private final long[] outputSize;

  public AdaptiveMaxPool2d(long... outputSize) {
    this.outputSize = outputSize.clone();
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.adaptiveMaxPool2d(input, outputSize);
  }
}
