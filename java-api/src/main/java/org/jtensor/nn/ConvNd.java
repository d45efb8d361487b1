package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.core.Shapes;

/**
 * What Conv1d, Conv2d and Conv3d share (torch.nn.Conv*d): weight [out, in/groups, kernel...] and
 * bias [out] (state-dict names "weight", "bias"), initialised as PyTorch does (kaiming_uniform with
 * a = √5, bias U(±1/√fanIn)), and forward through Functional's conv*d with the options.
 */
abstract class ConvNd extends Module {
  private final int nsp;
  private final Tensor weight, bias;
  private final LayerOptions options;

  ConvNd(int nsp, long inChannels, long outChannels, long[] kernelArg, LayerOptions options, Generator g) {
    String name = "Conv" + nsp + "d";
    long[] kernel = WindowArgs.expand(name, "kernel_size", kernelArg, nsp);
    if (inChannels <= 0 || outChannels <= 0) {
      throw new IllegalArgumentException(name + "(): in_channels and out_channels must be positive, got " + inChannels + " and " + outChannels);
    }
    for (long k : kernel) if (k <= 0) throw new IllegalArgumentException(name + "(): kernel_size must be positive, got " + WindowArgs.shape(kernel));
    if (options.groups <= 0) throw new IllegalArgumentException(name + "(): groups must be a positive integer");
    if (inChannels % options.groups != 0) throw new IllegalArgumentException(name + "(): in_channels must be divisible by groups");
    if (outChannels % options.groups != 0) throw new IllegalArgumentException(name + "(): out_channels must be divisible by groups");
    if (options.paddingMode != null) Convolution.namedPadding(name, options.paddingMode, new long[0], options.convStride(), options.dilation, nsp);
    this.nsp = nsp;
    this.options = options;
    long[] shape = new long[2 + nsp];
    shape[0] = outChannels;
    shape[1] = inChannels / options.groups;
    System.arraycopy(kernel, 0, shape, 2, nsp);
    Shapes.multiply(name, Shapes.numel(name, shape), DType.FLOAT32.itemSize());  // the weight's bytes fit 64 bits, refused naming the module
    try {
      Tensor[] wb = registerWeightAndBias(shape, options.bias, g);
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
    LayerOptions o = options;
    if (o.paddingMode != null) {
      long[][] p = Convolution.namedPadding("conv" + nsp + "d", o.paddingMode, weight.shape(), o.convStride(), o.dilation, nsp);
      return Convolution.conv(nsp, input, weight, bias, o.convStride(), p[0], p[1], o.dilation, o.groups);
    }
    return Convolution.conv(nsp, input, weight, bias, o.convStride(), o.padding, o.padding, o.dilation, o.groups);
  }

  @Override
  protected String extraRepr() {
    long[] s = weight.shape();
    return ModuleRepr.conv(s[1] * options.groups, s[0], s, nsp, options, null, bias != null);
  }
}
