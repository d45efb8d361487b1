package org.jtensor.nn;

import org.jtensor.Generator;

/** 3-D convolution (torch.nn.Conv3d): weight [out, in/groups, kD, kH, kW], bias [out]; see ConvNd and LayerOptions. */
public final class Conv3d extends ConvNd {
  public Conv3d(long inChannels, long outChannels, long[] kernel, LayerOptions options, Generator g) {
    super(3, inChannels, outChannels, kernel, options, g);
  }

  /** nn.Conv3d(in, out, k, padding=1, ...): PyTorch's keyword arguments, drawn from the default generator. */
  public Conv3d(long inChannels, long outChannels, long kernel, LayerOptions options) {
    this(inChannels, outChannels, new long[] {kernel}, options, Generator.defaultGenerator());
  }

  public Conv3d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, new long[] {kernel}, LayerOptions.of(), Generator.defaultGenerator());
  }
}
