package org.jtensor.nn;

import org.jtensor.Generator;

/** 3-D convolution (torch.nn.Conv3d): weight [out, in/groups, kD, kH, kW], bias [out]; see ConvNd and LayerOptions. */
public final class Conv3d extends ConvNd {
  public Conv3d(long inChannels, long outChannels, long[] kernel, LayerOptions options, Generator g) {
    super(3, inChannels, outChannels, kernel, options, g);
  }

  public Conv3d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, new long[] {kernel}, LayerOptions.of(), Generator.defaultGenerator());
  }
}
