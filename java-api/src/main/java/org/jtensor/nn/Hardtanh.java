package org.jtensor.nn;

import org.jtensor.Tensor;

/** Clamps to [minVal, maxVal], the gradient 0 at the bounds (torch.nn.Hardtanh(min_val, max_val)). */
public final class Hardtanh extends Module {
  private final double minVal;
  private final double maxVal;

  /** Hardtanh(-1, 1), PyTorch's default. */
  public Hardtanh() {
    this(-1.0, 1.0);
  }

  public Hardtanh(double minVal, double maxVal) {
    if (minVal > maxVal) throw new IllegalArgumentException("Hardtanh(): min_val cannot be greater than max_val");
    this.minVal = minVal;
    this.maxVal = maxVal;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.hardtanh(minVal, maxVal);
  }

  @Override
  protected String extraRepr() {
    return "min_val=" + ModuleRepr.f(minVal) + ", max_val=" + ModuleRepr.f(maxVal);
  }
}
