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

  /**
   * forward(input, output_size): the output's spatial sizes (or all of its sizes) chosen among the
   * stride's possible ones, as PyTorch's: the output padding is output_size minus the smallest
   * size, which must lie within [smallest, smallest + stride − 1]; it replaces the module's own (null: keeps it).
   */
  public Tensor forward(Tensor input, long[] outputSize) {
    if (outputSize == null) return forward(input);  // PyTorch's output_size=None: the module's own output padding
    String name = "ConvTranspose" + nsp + "D";  // PyTorch's spelling in these messages
    int nonSpatial = input.dim() == nsp + 2 ? 2 : 1;
    long[] size = outputSize.length == nonSpatial + nsp ? java.util.Arrays.copyOfRange(outputSize, nonSpatial, outputSize.length) : outputSize;
    if (size.length != nsp) {
      throw new IllegalArgumentException(name + ": for " + input.dim() + "D input, output_size must have " + nsp + " or " + (nonSpatial + nsp)
          + " elements (got " + outputSize.length + ")");
    }
    if (input.dim() < nsp + 1) return forward(input);  // the convolution refuses it in its own words
    long[] stride = WindowArgs.expand(name, "stride", options.convStride(), nsp), padding = WindowArgs.expand(name, "padding", options.padding, nsp);
    long[] dilation = WindowArgs.expand(name, "dilation", options.dilation, nsp), in = input.shape(), kernel = weight.shape();
    long[] min = new long[nsp], max = new long[nsp], pad = new long[nsp];
    boolean fits = true;
    for (int d = 0; d < nsp; d++) {
      min[d] = (in[in.length - nsp + d] - 1) * stride[d] - 2 * padding[d] + dilation[d] * (kernel[2 + d] - 1) + 1;
      max[d] = min[d] + stride[d] - 1;
      pad[d] = size[d] - min[d];
      fits &= size[d] >= min[d] && size[d] <= max[d];
    }
    if (!fits) {
      throw new IllegalArgumentException(name + ": requested an output size of " + java.util.Arrays.toString(size) + ", but valid sizes range from "
          + java.util.Arrays.toString(min) + " to " + java.util.Arrays.toString(max) + " (for an input of "
          + java.util.Arrays.toString(java.util.Arrays.copyOfRange(in, in.length - nsp, in.length)) + ")");
    }
    return Convolution.convTranspose(nsp, input, weight, bias, options.convStride(), options.padding, pad, options.groups, options.dilation);
  }

  @Override
  protected String extraRepr() {
    long[] s = weight.shape();
    return ModuleRepr.conv(s[0], s[1] * options.groups, s, nsp, options, outputPadding, bias != null);
  }
}
