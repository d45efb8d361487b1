package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies 0 within [-lambd, lambd], x elsewhere (torch.nn.Hardshrink(lambd)). */
public final class Hardshrink extends Module {
  private final double lambd;

  /** Hardshrink(lambd = 0.5), PyTorch's default. */
  public Hardshrink() {
    this(0.5);
  }

  public Hardshrink(double lambd) {
    this.lambd = lambd;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.hardshrink(lambd);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.f(lambd);
  }
}
