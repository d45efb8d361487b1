package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MaxPool2d: max over kernel windows (stride, padding, dilation, ceilMode from LayerOptions; stride: the kernel). */
public final class MaxPool2d extends Module {
  private final long[] kernel;
  private final LayerOptions options;

  public MaxPool2d(long[] kernel, LayerOptions options) {
    this.kernel = kernel.clone();
    this.options = options;
  }

  public MaxPool2d(long kernel, long stride) {
    this(new long[] {kernel}, LayerOptions.of().stride(stride));
  }

  public MaxPool2d(int kernel) {
    this(new long[] {kernel}, LayerOptions.of());
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.maxPool2d(input, kernel, options.stride, options.padding, options.dilation, options.ceilMode);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.maxPool(kernel, options);
  }
}
