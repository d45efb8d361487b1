package org.jtensor.nn;

import org.jtensor.Tensor;

/** The inverse of {@link PixelShuffle}: [*, C, H·r, W·r] into [*, C·r², H, W] (torch.nn.PixelUnshuffle). */
public final class PixelUnshuffle extends Module {
  private final long downscaleFactor;

  public PixelUnshuffle(long downscaleFactor) {
    this.downscaleFactor = downscaleFactor;
  }

  @Override
  public Tensor forward(Tensor input) {
    return PixelShuffle.shuffle(input, downscaleFactor, false);
  }

  @Override
  protected String extraRepr() {
    return "downscale_factor=" + downscaleFactor;
  }
}
