package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.core.Shapes;

/**
 * What ConvTranspose1d, 2d and 3d share (torch.nn.ConvTranspose*d): weight [in, out/groups,
 * kernel...] and bias [out] (state-dict names "weight", "bias"), initialised as PyTorch does
 * (kaiming_uniform with a = √5 over the weight's fan-in, size(1)·kernel, bias U(±1/√that)); stride,
 * padding, dilation, groups and bias from LayerOptions, outputPadding its own argument.
 */
abstract class ConvTransposeNd extends Module {
  private final int nsp;
  private final Tensor weight, bias;
  private final LayerOptions options;
  private final long[] outputPadding;

  ConvTransposeNd(int nsp, long inChannels, long outChannels, long[] kernelArg, LayerOptions options, long[] outputPadding, Generator g) {
    String name = "ConvTranspose" + nsp + "d";
    long[] kernel = WindowArgs.expand(name, "kernel_size", kernelArg, nsp);
    if (inChannels <= 0 || outChannels <= 0) {
      throw new IllegalArgumentException(name + "(): in_channels and out_channels must be positive, got " + inChannels + " and " + outChannels);
    }
    for (long k : kernel) if (k <= 0) throw new IllegalArgumentException(name + "(): kernel_size must be positive, got " + WindowArgs.shape(kernel));
    if (options.groups <= 0) throw new IllegalArgumentException(name + "(): groups must be a positive integer");  // torch's _ConvNd words
    if (inChannels % options.groups != 0) throw new IllegalArgumentException(name + "(): in_channels must be divisible by groups");
    if (outChannels % options.groups != 0) throw new IllegalArgumentException(name + "(): out_channels must be divisible by groups");
    if (options.paddingMode != null) throw new IllegalArgumentException(name + "(): only zero padding by numbers is supported, got '" + options.paddingMode + "'");
    this.nsp = nsp;
    this.options = options;
    this.outputPadding = WindowArgs.expand(name, "output_padding", outputPadding, nsp);
    long[] shape = new long[2 + nsp];
    shape[0] = inChannels;
    shape[1] = outChannels / options.groups;
    System.arraycopy(kernel, 0, shape, 2, nsp);
    Shapes.multiply(name, Shapes.numel(name, shape), DType.FLOAT32.itemSize());  // the weight's bytes fit 64 bits, refused naming the module
    try {
      // PyTorch's bias bound is the weight's fan-in (size(1)·kernel), whatever its dim 0 means here
      Tensor[] wb = registerWeightAndBias(shape, outChannels, options.bias, g);
      weight = wb[0];
      bias = wb[1];
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public Tensor weight() {
    return weight;
  }

  /** Null when built with bias(false). */
  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Convolution.convTranspose(nsp, input, weight, bias, options.convStride(), options.padding, outputPadding, options.groups,
        options.dilation);
  }
}
