package org.jtensor.nn;

import org.jtensor.Tensor;

/** Flattens dims startDim..endDim into one (torch.nn.Flatten: from dim 1 by default, keeping the batch). */
public final class Flatten extends Module {
  private final int startDim, endDim;

  public Flatten() {
    this(1, -1);
  }

  public Flatten(int startDim, int endDim) {
    this.startDim = startDim;
    this.endDim = endDim;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.flatten(startDim, endDim);
  }

  @Override
  protected String extraRepr() {
    return "start_dim=" + startDim + ", end_dim=" + endDim;
  }
}
