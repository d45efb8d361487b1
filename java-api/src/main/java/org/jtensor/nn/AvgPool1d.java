package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.AvgPool1d: mean over kernel windows (stride, padding, ceilMode, countIncludePad from LayerOptions; stride: the kernel). */
public final class AvgPool1d extends Module {
  private final long[] kernel;
  private final LayerOptions options;

  public AvgPool1d(long[] kernel, LayerOptions options) {
    if (options.divisorOverride != null) {  // nn.AvgPool1d has no such argument
      throw new IllegalArgumentException("AvgPool1d(): divisor_override is an option of AvgPool2d and AvgPool3d only");
    }
    this.kernel = kernel.clone();
    this.options = options;
  }

  public AvgPool1d(int kernel) {
    this(new long[] {kernel}, LayerOptions.of());
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.avgPool1d(input, kernel, options.stride, options.padding, options.ceilMode, options.countIncludePad);
  }

  @Override
  protected String extraRepr() {
    // PyTorch's AvgPool1d keeps its arguments as 1-tuples (_single), where AvgPool2d/3d keep them as given
    return "kernel_size=" + ModuleRepr.tuple(kernel, 1) + ", stride=" + ModuleRepr.tuple(options.stride == null ? kernel : options.stride, 1)
        + ", padding=" + ModuleRepr.tuple(options.padding, 1);
  }
}
