package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;

/**
 * Batch normalization over the channels of dim 1 (torch.nn.BatchNorm1d for [N, C] or [N, C, L],
 * BatchNorm2d for [N, C, H, W]) with PyTorch's arguments, buffers and state-dict names: learned
 * scale and shift ("weight", "bias") when affine; "running_mean", "running_var" and
 * "num_batches_tracked" when tracking running statistics. momentum 0.1 and eps 1e-5 by default; a
 * null momentum averages the running statistics cumulatively (factor 1 / num_batches_tracked).
 * Without running statistics the batch's own statistics normalize in eval mode too, as in PyTorch.
 */
public class BatchNorm extends Module {
  private final int inputDims;
  private final long numFeatures;
  private final Double momentum;
  private final double eps;
  private final Tensor weight, bias, runningMean, runningVar, numBatchesTracked;

  /** BatchNorm1d: input [N, C] or [N, C, L]. */
  public static BatchNorm batchNorm1d(long channels) {
    return new BatchNorm1d(channels);
  }

  /** BatchNorm2d: input [N, C, H, W]. */
  public static BatchNorm batchNorm2d(long channels) {
    return new BatchNorm2d(channels);
  }

  public BatchNorm(long channels, int inputDims, double momentum, double eps) {
    this(channels, inputDims, eps, (Double) momentum, true, true);
  }

  /** PyTorch's (num_features, eps, momentum, affine, track_running_stats); inputDims 4 for 2-d, anything else for 1-d. */
  public BatchNorm(long numFeatures, int inputDims, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
    if (numFeatures < 1) throw new IllegalArgumentException("BatchNorm: num_features must be positive, got " + numFeatures);
    this.inputDims = inputDims;
    this.numFeatures = numFeatures;
    this.momentum = momentum;
    this.eps = eps;
    try {
      weight = affine ? registerParameter("weight", Tensor.ones(new long[] {numFeatures}, DType.FLOAT32)) : null;
      bias = affine ? registerParameter("bias", Tensor.zeros(new long[] {numFeatures}, DType.FLOAT32)) : null;
      runningMean = trackRunningStats ? registerBuffer("running_mean", Tensor.zeros(new long[] {numFeatures}, DType.FLOAT32)) : null;
      runningVar = trackRunningStats ? registerBuffer("running_var", Tensor.ones(new long[] {numFeatures}, DType.FLOAT32)) : null;
      // Optional on load: a state dict saved before the buffer existed (PyTorch's version 1, jtensor's
      // before issue 21) loads and keeps the count, as PyTorch's _load_from_state_dict does.
      numBatchesTracked = trackRunningStats ? registerOptionalBuffer("num_batches_tracked", Tensor.zeros(new long[] {}, DType.INT64)) : null;
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  @Override
  public Tensor forward(Tensor input) {
    boolean ok = inputDims == 4 ? input.dim() == 4 : input.dim() == 2 || input.dim() == 3;
    if (!ok) {
      throw new IllegalArgumentException("BatchNorm: expected " + (inputDims == 4 ? "4D" : "2D or 3D") + " input (got "
          + input.dim() + "D input)");
    }
    double factor = momentum == null ? 0.0 : momentum;
    if (isTraining() && numBatchesTracked != null) {
      try (GradMode.Scope off = GradMode.noGrad()) {
        numBatchesTracked.add_(1L);
      }
      if (momentum == null) factor = 1.0 / numBatchesTracked.item();
    }
    // The batch's statistics in training, and always without running ones (they are then null).
    boolean batchStats = isTraining() || runningMean == null;
    return Functional.batchNorm(input, runningMean, runningVar, weight, bias, batchStats, factor, eps);
  }

  @Override
  protected String extraRepr() {
    return numFeatures + ", eps=" + ModuleRepr.f(eps) + ", momentum=" + (momentum == null ? "None" : ModuleRepr.f(momentum)) + ", affine="
        + ModuleRepr.b(weight != null) + ", bias=" + ModuleRepr.b(bias != null) + ", track_running_stats=" + ModuleRepr.b(runningMean != null);
  }
}
