package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;

/** 2-D convolution (torch.nn.Conv2d, groups 1), initialised as PyTorch: kaiming_uniform(a=√5), bias U(±1/√fanIn). */
public final class Conv2d extends Module {
  private final Tensor weight, bias;
  private final int stride, padding;

  public Conv2d(long inChannels, long outChannels, int kernel, int stride, int padding, Generator g) {
    if (inChannels <= 0 || outChannels <= 0 || kernel <= 0) {
      throw new IllegalArgumentException("Conv2d(): channels and kernel must be positive");
    }
    this.stride = stride;
    this.padding = padding;
    try {
      weight = registerParameter("weight", Tensor.empty(new long[] {outChannels, inChannels, kernel, kernel}, DType.FLOAT32));
      Init.kaimingUniform_(weight, Math.sqrt(5), g);
      bias = registerParameter("bias", Tensor.empty(new long[] {outChannels}, DType.FLOAT32));
      Init.uniform_(bias, 1 / Math.sqrt(Init.fanIn(weight)), g);
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public Tensor weight() {
    return weight;
  }

  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.conv2d(input, weight, bias, stride, padding);
  }
}
