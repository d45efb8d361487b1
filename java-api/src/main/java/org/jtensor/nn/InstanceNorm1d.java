package org.jtensor.nn;

/** torch.nn.InstanceNorm1d: input [N, C, L] or [C, L]; eps 1e-5, momentum 0.1, neither affine nor tracking running statistics by default. */
public final class InstanceNorm1d extends InstanceNorm {
  public InstanceNorm1d(long numFeatures) {
    super(1, numFeatures, 1e-5, 0.1, false, false);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); momentum null: the running statistics never move. */
  public InstanceNorm1d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    super(1, numFeatures, eps, momentum, affine, trackRunningStats);
  }
}
