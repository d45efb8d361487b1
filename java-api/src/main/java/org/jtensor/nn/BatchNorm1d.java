package org.jtensor.nn;

/** torch.nn.BatchNorm1d: input [N, C] or [N, C, L]; eps 1e-5, momentum 0.1, affine, tracking running statistics by default. */
public final class BatchNorm1d extends BatchNorm {
  public BatchNorm1d(long numFeatures) {
    super(numFeatures, -1, 0.1, 1e-5);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); momentum null: a cumulative average. */
  public BatchNorm1d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    super(numFeatures, -1, eps, momentum, affine, trackRunningStats);
  }
}
