package org.jtensor.nn;

/** torch.nn.AdaptiveAvgPool3d: [N, C, D, H, W] to [N, C, outputSize], PyTorch's adaptive windows. */
public final class AdaptiveAvgPool3d extends AdaptivePooling {
  public AdaptiveAvgPool3d(long... outputSize) {
    super(outputSize, Functional::adaptiveAvgPool3d);
  }
}
