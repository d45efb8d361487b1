package org.jtensor.nn;

/** torch.nn.InstanceNorm2d: input [N, C, H, W] or [C, H, W]; eps 1e-5, momentum 0.1, neither affine nor tracking running statistics by default. */
public final class InstanceNorm2d extends InstanceNorm {
  public InstanceNorm2d(long numFeatures) {
    super(2, numFeatures, 1e-5, 0.1, false, false);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); momentum null: the running statistics never move. */
  public InstanceNorm2d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    super(2, numFeatures, eps, momentum, affine, trackRunningStats);
  }
}
