package org.jtensor.nn;

/** torch.nn.AdaptiveMaxPool3d: the maximum over each of outputSize adaptive windows (Functional.adaptiveMaxPool3d). */
public final class AdaptiveMaxPool3d extends AdaptivePooling {
  public AdaptiveMaxPool3d(long... outputSize) {
    super(outputSize, Functional::adaptiveMaxPool3d);
  }
}
