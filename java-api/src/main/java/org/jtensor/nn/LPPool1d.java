package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.LPPool1d(norm_type, kernel_size, stride, ceil_mode): the p-norm of each window of [N, C, L] or [C, L]; stride null: the kernel. */
public final class LPPool1d extends Module {
  private final double normType;
  private final long[] kernel, stride;
  private final boolean ceilMode;

  public LPPool1d(double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    this.normType = normType;
    this.kernel = kernelSize.clone();
    this.stride = stride == null ? null : stride.clone();
    this.ceilMode = ceilMode;
  }

  public LPPool1d(double normType, int kernelSize) {
    this(normType, new long[] {kernelSize}, null, false);
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.lpPool1d(input, normType, kernel, stride, ceilMode);
  }

  @Override
  protected String extraRepr() {
    return "norm_type=" + ModuleRepr.f(normType) + ", kernel_size=" + ModuleRepr.given(kernel) + ", stride=" + (stride == null ? "None" : ModuleRepr.given(stride))
        + ", ceil_mode=" + ModuleRepr.b(ceilMode);
  }
}
