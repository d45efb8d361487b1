package org.jtensor.nn;

import org.jtensor.Tensor;

/** Max over kernel×kernel windows, stride kernel (torch.nn.MaxPool2d). */
public final class MaxPool2d extends Module {
  private final int kernel;

  public MaxPool2d(int kernel) {
    if (kernel <= 0) throw new IllegalArgumentException("MaxPool2d(): kernel must be positive, got " + kernel);
    this.kernel = kernel;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.maxPool2d(input, kernel);
  }
}
