package org.jtensor.nn;

import org.jtensor.Generator;

/** 2-D transposed convolution (torch.nn.ConvTranspose2d): weight [in, out/groups, kH, kW], bias [out]; see ConvTransposeNd and LayerOptions. */
public final class ConvTranspose2d extends ConvTransposeNd {
  public ConvTranspose2d(long inChannels, long outChannels, long[] kernel, LayerOptions options, long[] outputPadding, Generator g) {
    super(2, inChannels, outChannels, kernel, options, outputPadding, g);
  }

  public ConvTranspose2d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, kernel, LayerOptions.of(), 0);
  }

  /** nn.ConvTranspose2d(in, out, kernel, stride=..., padding=..., ...) from options, the default generator's initialisation. */
  public ConvTranspose2d(long inChannels, long outChannels, long kernel, LayerOptions options) {
    this(inChannels, outChannels, kernel, options, 0);
  }

  /** The same with output_padding (one value for every dim). */
  public ConvTranspose2d(long inChannels, long outChannels, long kernel, LayerOptions options, long outputPadding) {
    this(inChannels, outChannels, new long[] {kernel}, options, new long[] {outputPadding}, Generator.defaultGenerator());
  }
}
