package org.jtensor.nn;

/** torch.nn.AdaptiveAvgPool1d: [N, C, L] to [N, C, outputSize], PyTorch's adaptive windows. */
public final class AdaptiveAvgPool1d extends AdaptivePooling {
  public AdaptiveAvgPool1d(long... outputSize) {
    super(outputSize, Functional::adaptiveAvgPool1d);
  }
}
