package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.AvgPool3d: mean over kernel windows (stride, padding, ceilMode, countIncludePad from LayerOptions; stride: the kernel). */
public final class AvgPool3d extends Module {
  private final long[] kernel;
  private final LayerOptions options;

  public AvgPool3d(long[] kernel, LayerOptions options) {
    this.kernel = kernel.clone();
    this.options = options;
  }

  public AvgPool3d(int kernel) {
    this(new long[] {kernel}, LayerOptions.of());
  }

  @Override
  public Tensor forward(Tensor input) {
    return Pooling.avgPool(3, input, kernel, options.stride, options.padding, options.ceilMode, options.countIncludePad, options.divisorOverride);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.avgPool(kernel, options);
  }
}
