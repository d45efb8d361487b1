package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * torch.nn.ConvTranspose2d: weight [in, out/groups, kH, kW], bias [out], initialised as PyTorch's
 * (kaiming_uniform with a = √5 over the weight's fan-in, size(1)·kernel, bias U(±1/√that));
 * stride, padding, dilation, groups and bias from LayerOptions, outputPadding its own argument.
 */
public final class ConvTranspose2d extends Module {
  private final Tensor weight, bias;
  private final LayerOptions options;
  private final long[] outputPadding;

  public ConvTranspose2d(long inChannels, long outChannels, long[] kernel, LayerOptions options, long[] outputPadding, Generator g) {
    long[] k = WindowArgs.expand("ConvTranspose2d", "kernel_size", kernel, 2);
    if (inChannels <= 0 || outChannels <= 0 || k[0] <= 0 || k[1] <= 0) {
      throw new IllegalArgumentException("ConvTranspose2d(): channels and kernel_size must be positive");
    }
    if (options.groups <= 0 || inChannels % options.groups != 0 || outChannels % options.groups != 0) {
      throw new IllegalArgumentException("ConvTranspose2d(): in_channels and out_channels must be divisible by groups");
    }
    this.options = options;
    this.outputPadding = outputPadding.clone();
    try {
      // PyTorch's bias bound is the weight's fan-in (size(1)·kernel), whatever its dim 0 means here
      Tensor[] wb = registerWeightAndBias(new long[] {inChannels, outChannels / options.groups, k[0], k[1]}, outChannels, options.bias, g);
      weight = wb[0];
      bias = wb[1];
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public ConvTranspose2d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, new long[] {kernel}, LayerOptions.of(), new long[] {0}, Generator.defaultGenerator());
  }

  public Tensor weight() {
    return weight;
  }

  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.convTranspose2d(input, weight, bias, options.convStride(), options.padding, outputPadding, options.groups,
        options.dilation);
  }
}
