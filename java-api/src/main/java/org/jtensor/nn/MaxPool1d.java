package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MaxPool1d: max over windows of kernel (stride, padding, dilation, ceilMode from LayerOptions; stride: the kernel). */
public final class MaxPool1d extends Module {
  private final long[] kernel;
  private final LayerOptions options;

  /** MaxPool1d(kernel_size): stride the kernel, no padding. */
  public MaxPool1d(int kernel) {
    this(kernel, LayerOptions.of());
  }

  public MaxPool1d(long kernel, LayerOptions options) {
    this.kernel = new long[] {kernel};
    this.options = options;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.maxPool1d(input, kernel, options.stride, options.padding, options.dilation, options.ceilMode);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.maxPool(kernel, options);
  }
}
