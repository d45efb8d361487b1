package org.jtensor.nn;

import org.jtensor.Generator;

/** 1-D transposed convolution (torch.nn.ConvTranspose1d): weight [in, out/groups, k], bias [out]; see ConvTransposeNd and LayerOptions. */
public final class ConvTranspose1d extends ConvTransposeNd {
  public ConvTranspose1d(long inChannels, long outChannels, long[] kernel, LayerOptions options, long[] outputPadding, Generator g) {
    super(1, inChannels, outChannels, kernel, options, outputPadding, g);
  }

  public ConvTranspose1d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, new long[] {kernel}, LayerOptions.of(), new long[] {0}, Generator.defaultGenerator());
  }
}
