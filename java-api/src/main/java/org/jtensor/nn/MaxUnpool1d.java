package org.jtensor.nn;

import org.jtensor.Tensor;

/** torch.nn.MaxUnpool1d(kernel_size, stride, padding): max_pool1d's maxima put back at their indices; stride null: the kernel. */
public final class MaxUnpool1d extends Module {
  private final long[] kernel, stride, padding;

  public MaxUnpool1d(long[] kernelSize, long[] stride, long[] padding) {
    this.kernel = kernelSize.clone();
    this.stride = stride == null ? null : stride.clone();
    this.padding = padding.clone();
  }

  public MaxUnpool1d(int kernelSize) {
    this(new long[] {kernelSize}, null, new long[] {0});
  }

  @Override
  public Tensor forward(Tensor input) {
    throw new UnsupportedOperationException("MaxUnpool1d takes the max pool's indices too: call forward(input, indices)");
  }

  public Tensor forward(Tensor input, Tensor indices) {
    return Functional.maxUnpool1d(input, indices, kernel, stride, padding, null);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.maxUnpool(kernel, stride, padding, 1);
  }
}
