package org.jtensor.nn;

import org.jtensor.Generator;

/** 1-D convolution (torch.nn.Conv1d): weight [out, in/groups, k], bias [out]; see ConvNd and LayerOptions. */
public final class Conv1d extends ConvNd {
  public Conv1d(long inChannels, long outChannels, long kernel, LayerOptions options, Generator g) {
    super(1, inChannels, outChannels, new long[] {kernel}, options, g);
  }

  /** nn.Conv1d(in, out, k, padding=1, ...): PyTorch's keyword arguments, drawn from the default generator. */
  public Conv1d(long inChannels, long outChannels, long kernel, LayerOptions options) {
    this(inChannels, outChannels, kernel, options, Generator.defaultGenerator());
  }

  public Conv1d(long inChannels, long outChannels, long kernel) {
    this(inChannels, outChannels, kernel, LayerOptions.of(), Generator.defaultGenerator());
  }
}
