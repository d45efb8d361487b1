package org.jtensor.nn;

/** torch.nn.InstanceNorm3d: input [N, C, D, H, W] or [C, D, H, W]; eps 1e-5, momentum 0.1, neither affine nor tracking running statistics by default. */
public final class InstanceNorm3d extends InstanceNorm {
  public InstanceNorm3d(long numFeatures) {
    super(3, numFeatures, 1e-5, 0.1, false, false);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); momentum null: the running statistics never move. */
  public InstanceNorm3d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    super(3, numFeatures, eps, momentum, affine, trackRunningStats);
  }
}
