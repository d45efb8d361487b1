package org.jtensor.nn;

import org.jtensor.Tensor;

/** value where x ≤ threshold, x elsewhere (torch.nn.Threshold(threshold, value)). */
public final class Threshold extends Module {
  private final double threshold;
  private final double value;

  public Threshold(double threshold, double value) {
    this.threshold = threshold;
    this.value = value;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.threshold(threshold, value);
  }

  @Override
  protected String extraRepr() {
    return "threshold=" + ModuleRepr.f(threshold) + ", value=" + ModuleRepr.f(value);
  }
}
