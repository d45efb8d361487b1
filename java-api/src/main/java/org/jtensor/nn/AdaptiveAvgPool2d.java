package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.AdaptiveAvgPool2d: [N, C, H, W] to [N, C, outputSize], PyTorch's adaptive windows. */
public final class AdaptiveAvgPool2d extends Module {
  private final long[] outputSize;

  public AdaptiveAvgPool2d(long... outputSize) {
    this.outputSize = outputSize.clone();
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.adaptiveAvgPool2d(input, outputSize);
  }
}
