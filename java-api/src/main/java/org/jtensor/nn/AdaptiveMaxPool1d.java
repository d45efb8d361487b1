package org.jtensor.nn;

/** torch.nn.AdaptiveMaxPool1d: the maximum over each of outputSize adaptive windows (Functional.adaptiveMaxPool1d). */
public final class AdaptiveMaxPool1d extends AdaptivePooling {
  public AdaptiveMaxPool1d(long... outputSize) {
    super(outputSize, Functional::adaptiveMaxPool1d);
  }
}
