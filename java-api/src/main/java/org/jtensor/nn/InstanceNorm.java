package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * Instance normalization (torch.nn.InstanceNorm1d/2d/3d): each channel of each sample normalized
 * over its spatial elements, with PyTorch's arguments and state-dict names: eps 1e-5, momentum 0.1,
 * no "weight"/"bias" and no "running_mean"/"running_var"/"num_batches_tracked" unless affine and
 * trackRunningStats ask for them. The running statistics normalize in eval mode only; a null
 * momentum passes 0 (they stay as they are, and num_batches_tracked is never counted, as PyTorch's).
 * An input without its batch dim is normalized as a batch of one.
 */
public class InstanceNorm extends Module {
  private final int spatialDims;
  private final long numFeatures;
  private final double eps, momentum;
  private final Tensor weight, bias, runningMean, runningVar;

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats) for spatialDims (1, 2 or 3) spatial dims. */
  protected InstanceNorm(int spatialDims, long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    if (numFeatures < 0 && (affine || trackRunningStats)) {
      throw new IllegalArgumentException(getClass().getSimpleName() + ": num_features must be non-negative, got " + numFeatures);
    }
    this.spatialDims = spatialDims;
    this.numFeatures = numFeatures;
    this.eps = eps;
    this.momentum = momentum == null ? 0.0 : momentum;
    try {
      weight = affine ? registerParameter("weight", Tensor.ones(new long[] {numFeatures}, DType.FLOAT32)) : null;
      bias = affine ? registerParameter("bias", Tensor.zeros(new long[] {numFeatures}, DType.FLOAT32)) : null;
      runningMean = trackRunningStats ? registerBuffer("running_mean", Tensor.zeros(new long[] {numFeatures}, DType.FLOAT32)) : null;
      runningVar = trackRunningStats ? registerBuffer("running_var", Tensor.ones(new long[] {numFeatures}, DType.FLOAT32)) : null;
      if (trackRunningStats) registerOptionalBuffer("num_batches_tracked", Tensor.zeros(new long[] {}, DType.INT64));
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public Tensor weight() {
    return weight;
  }

  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    String name = getClass().getSimpleName();
    int unbatched = spatialDims + 1;
    if (input.dim() != unbatched && input.dim() != unbatched + 1) {
      throw new IllegalArgumentException(name + ": expected " + unbatched + "D or " + (unbatched + 1) + "D input (got " + input.dim() + "D input)");
    }
    int featureDim = input.dim() - unbatched;
    // Without affine parameters num_features is unused (PyTorch only warns); with them it must match.
    if (weight != null && input.shape()[featureDim] != numFeatures) {
      throw new IllegalArgumentException(name + ": expected input's size at dim=" + featureDim + " to match num_features (" + numFeatures
          + "), but got: " + input.shape()[featureDim] + ".");
    }
    boolean inputStats = isTraining() || runningMean == null;
    if (featureDim == 1) return Functional.instanceNorm(input, runningMean, runningVar, weight, bias, inputStats, momentum, eps);
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Functional.instanceNorm(input.unsqueeze(0), runningMean, runningVar, weight, bias, inputStats, momentum, eps).squeeze(0));
    }
  }

  @Override
  protected String extraRepr() {
    return numFeatures + ", eps=" + ModuleRepr.f(eps) + ", momentum=" + ModuleRepr.f(momentum) + ", affine=" + ModuleRepr.b(weight != null)
        + ", bias=" + ModuleRepr.b(bias != null) + ", track_running_stats=" + ModuleRepr.b(runningMean != null);
  }
}
