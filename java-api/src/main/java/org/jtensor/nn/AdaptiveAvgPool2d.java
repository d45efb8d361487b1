package org.jtensor.nn;

/** torch.nn.AdaptiveAvgPool2d: [N, C, H, W] to [N, C, outputSize], PyTorch's adaptive windows. */
public final class AdaptiveAvgPool2d extends AdaptivePooling {
  public AdaptiveAvgPool2d(long... outputSize) {
    super(outputSize, Functional::adaptiveAvgPool2d);
  }
}
