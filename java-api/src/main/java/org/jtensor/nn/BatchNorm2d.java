package org.jtensor.nn;

/** torch.nn.BatchNorm2d: input [N, C, H, W]; eps 1e-5, momentum 0.1, affine, tracking running statistics by default. */
public final class BatchNorm2d extends BatchNorm {
  public BatchNorm2d(long numFeatures) {
    super(numFeatures, 4, 0.1, 1e-5);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); momentum null: a cumulative average. */
  public BatchNorm2d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    super(numFeatures, 4, eps, momentum, affine, trackRunningStats);
  }
}
