package org.jtensor.nn;

/** torch.nn.BatchNorm2d: input [N, C, H, W]; momentum 0.1, eps 1e-5. */
public final class BatchNorm2d extends BatchNorm {
  public BatchNorm2d(long channels) {
    super(channels, 4, 0.1, 1e-5);
  }
}
