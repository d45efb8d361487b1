package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** y = x·Wᵀ + b (torch.nn.Linear), initialised as PyTorch does: kaiming_uniform(a=√5), bias U(±1/√in). */
public final class Linear extends Module {
  private final Tensor weight;
  private final Tensor bias;

  /** PyTorch's Linear(in_features, out_features): a bias, initialised from the default generator. */
  public Linear(long inFeatures, long outFeatures) {
    this(inFeatures, outFeatures, true, Generator.defaultGenerator());
  }

  /** Linear(in_features, out_features, bias=...), from the default generator. */
  public Linear(long inFeatures, long outFeatures, boolean withBias) {
    this(inFeatures, outFeatures, withBias, Generator.defaultGenerator());
  }

  public Linear(long inFeatures, long outFeatures, Generator g) {
    this(inFeatures, outFeatures, true, g);
  }

  public Linear(long inFeatures, long outFeatures, boolean withBias, Generator g) {
    if (inFeatures < 0 || outFeatures < 0) {  // 0 is PyTorch's: an empty weight, a zero bias
      throw new IllegalArgumentException("Linear(): Trying to create tensor with negative dimension " + Math.min(inFeatures, outFeatures)
          + ": [" + outFeatures + ", " + inFeatures + "]");
    }
    try {
      Tensor[] wb = registerWeightAndBias(new long[] {outFeatures, inFeatures}, withBias, g);
      weight = wb[0];
      bias = wb[1];
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
    return Functional.linear(input, weight, bias);
  }

  @Override
  protected String extraRepr() {
    return "in_features=" + weight.shape()[1] + ", out_features=" + weight.shape()[0] + ", bias=" + ModuleRepr.b(bias != null);
  }
}
