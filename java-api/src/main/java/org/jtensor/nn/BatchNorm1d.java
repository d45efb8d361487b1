package org.jtensor.nn;

/** torch.nn.BatchNorm1d: input [N, C] or [N, C, L]; momentum 0.1, eps 1e-5. */
public final class BatchNorm1d extends BatchNorm {
  public BatchNorm1d(long channels) {
    super(channels, -1, 0.1, 1e-5);
  }
}
