package org.jtensor.nn;

import org.jtensor.Tensor;

/** Mean over kernel×kernel windows, stride kernel (torch.nn.AvgPool2d). */
public final class AvgPool2d extends Module {
  private final int kernel;

  public AvgPool2d(int kernel) {
    if (kernel <= 0) throw new IllegalArgumentException("AvgPool2d(): kernel must be positive, got " + kernel);
    this.kernel = kernel;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.avgPool2d(input, kernel);
  }
}
