package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MaxPool3d: max over kernel windows (stride, padding, dilation, ceilMode from LayerOptions; stride: the kernel). */
public final class MaxPool3d extends Module {
  private final long[] kernel;
  private final LayerOptions options;

  public MaxPool3d(long[] kernel, LayerOptions options) {
    this.kernel = kernel.clone();
    this.options = options;
  }

  public MaxPool3d(int kernel) {
    this(new long[] {kernel}, LayerOptions.of());
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.maxPool3d(input, kernel, options.stride, options.padding, options.dilation, options.ceilMode);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.maxPool(kernel, options);
  }
}
