package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * Batch normalization over the channels of dim 1 (torch.nn.BatchNorm1d for [N, C] or [N, C, L],
 * BatchNorm2d for [N, C, H, W]): learned scale and shift, running mean and variance as buffers,
 * momentum 0.1, eps 1e-5 by default.
 */
public class BatchNorm extends Module {
  private final int inputDims;
  private final double momentum, eps;
  private final Tensor weight, bias, runningMean, runningVar;

  /** BatchNorm1d: input [N, C] or [N, C, L]. */
  public static BatchNorm batchNorm1d(long channels) {
    return new BatchNorm1d(channels);
  }

  /** BatchNorm2d: input [N, C, H, W]. */
  public static BatchNorm batchNorm2d(long channels) {
    return new BatchNorm2d(channels);
  }

  public BatchNorm(long channels, int inputDims, double momentum, double eps) {
    this.inputDims = inputDims;
    this.momentum = momentum;
    this.eps = eps;
    try {
      weight = registerParameter("weight", Tensor.ones(new long[] {channels}, DType.FLOAT32));
      bias = registerParameter("bias", Tensor.zeros(new long[] {channels}, DType.FLOAT32));
      runningMean = registerBuffer("running_mean", Tensor.zeros(new long[] {channels}, DType.FLOAT32));
      runningVar = registerBuffer("running_var", Tensor.ones(new long[] {channels}, DType.FLOAT32));
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
    return Functional.batchNorm(input, runningMean, runningVar, weight, bias, isTraining(), momentum, eps);
  }
}
