package org.jtensor.nn;

/** torch.nn.AdaptiveMaxPool2d: the maximum over each of outputSize adaptive windows (Functional.adaptiveMaxPool2d). */
public final class AdaptiveMaxPool2d extends AdaptivePooling {
  public AdaptiveMaxPool2d(long... outputSize) {
    super(outputSize, Functional::adaptiveMaxPool2d);
  }
}
