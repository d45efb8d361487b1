package org.jtensor.nn;

import org.jtensor.Generator;

/** 2-D convolution (torch.nn.Conv2d): weight [out, in/groups, kH, kW], bias [out]; see ConvNd and LayerOptions. */
public final class Conv2d extends ConvNd {
  public Conv2d(long inChannels, long outChannels, long[] kernel, LayerOptions options, Generator g) {
    super(2, inChannels, outChannels, kernel, options, g);
  }

  public Conv2d(long inChannels, long outChannels, long kernel, LayerOptions options, Generator g) {
    this(inChannels, outChannels, new long[] {kernel}, options, g);
  }

  /** nn.Conv2d(in, out, k, padding=1, ...): PyTorch's keyword arguments, drawn from the default generator. */
  public Conv2d(long inChannels, long outChannels, long kernel, LayerOptions options) {
    this(inChannels, outChannels, kernel, options, Generator.defaultGenerator());
  }

  public Conv2d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, kernel, LayerOptions.of(), Generator.defaultGenerator());
  }

  /** The shorthand of the first sessions: one kernel size, stride and padding for both dims. */
  public Conv2d(long inChannels, long outChannels, int kernel, int stride, int padding, Generator g) {
    this(inChannels, outChannels, kernel, LayerOptions.of().stride(stride).padding(padding), g);
  }
}
