package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * x where x > 0, a · x elsewhere, a learned (torch.nn.PReLU(num_parameters, init)): one a shared by
 * every channel, or one per channel (dim 1 of the input). Its parameter is "weight", as PyTorch's.
 */
public final class PReLU extends Module {
  private final Tensor weight;

  /** PReLU(1, 0.25), PyTorch's default. */
  public PReLU() {
    this(1, 0.25);
  }

  public PReLU(long numParameters, double init) {
    if (numParameters < 1) throw new IllegalArgumentException("PReLU(): num_parameters must be at least 1, got " + numParameters);
    weight = registerParameter("weight", Tensor.full(new long[] {numParameters}, init));
  }

  public Tensor weight() {
    return weight;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.prelu(weight);
  }

  @Override
  protected String extraRepr() {
    return "num_parameters=" + weight.numel();
  }
}
