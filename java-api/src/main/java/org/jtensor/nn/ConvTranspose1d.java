package org.jtensor.nn;

import org.jtensor.Generator;

/** 1-D transposed convolution (torch.nn.ConvTranspose1d): weight [in, out/groups, k], bias [out]; see ConvTransposeNd and LayerOptions. */
public final class ConvTranspose1d extends ConvTransposeNd {
  public ConvTranspose1d(long inChannels, long outChannels, long[] kernel, LayerOptions options, long[] outputPadding, Generator g) {
    super(1, inChannels, outChannels, kernel, options, outputPadding, g);
  }

  public ConvTranspose1d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, kernel, LayerOptions.of(), 0);
  }

  /** nn.ConvTranspose1d(in, out, kernel, stride=..., padding=..., ...) from options, the default generator's initialisation. */
  public ConvTranspose1d(long inChannels, long outChannels, long kernel, LayerOptions options) {
    this(inChannels, outChannels, kernel, options, 0);
  }

  /** The same with output_padding (one value for every dim). */
  public ConvTranspose1d(long inChannels, long outChannels, long kernel, LayerOptions options, long outputPadding) {
    this(inChannels, outChannels, new long[] {kernel}, options, new long[] {outputPadding}, Generator.defaultGenerator());
  }
}
