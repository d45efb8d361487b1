package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;

/** torch.nn.GroupNorm(numGroups, numChannels, eps, affine): weight ones and bias zeros of [numChannels] when affine. */
public final class GroupNorm extends Module {
  private final long numGroups, numChannels;
  private final double eps;
  private final Tensor weight, bias;

  public GroupNorm(long numGroups, long numChannels, double eps, boolean affine) {
    if (numGroups <= 0 || numChannels % numGroups != 0) {
      throw new IllegalArgumentException("GroupNorm(): num_channels must be divisible by num_groups");
    }
    this.numGroups = numGroups;
    this.numChannels = numChannels;
    this.eps = eps;
    try {
      weight = affine ? registerParameter("weight", Tensor.ones(new long[] {numChannels}, DType.FLOAT32)) : null;
      bias = affine ? registerParameter("bias", Tensor.zeros(new long[] {numChannels}, DType.FLOAT32)) : null;
    } catch (RuntimeException | Error e) {
      abandon(e);
      throw e;
    }
  }

  public GroupNorm(long numGroups, long numChannels) {
    this(numGroups, numChannels, 1e-5, true);
  }

  public Tensor weight() {
    return weight;
  }

  public Tensor bias() {
    return bias;
  }

  @Override
  public Tensor forward(Tensor input) {
    return Functional.groupNorm(input, numGroups, weight, bias, eps);
  }

  @Override
  protected String extraRepr() {
    return numGroups + ", " + numChannels + ", eps=" + ModuleRepr.f(eps) + ", affine=" + ModuleRepr.b(weight != null) + ", bias=" + ModuleRepr.b(bias != null);
  }
}
