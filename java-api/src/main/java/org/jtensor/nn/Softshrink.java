package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies x moved lambd toward 0, 0 within [-lambd, lambd] (torch.nn.Softshrink(lambd)). */
public final class Softshrink extends Module {
  private final double lambd;

  /** Softshrink(lambd = 0.5), PyTorch's default. */
  public Softshrink() {
    this(0.5);
  }

  public Softshrink(double lambd) {
    this.lambd = lambd;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.softshrink(lambd);
  }

  @Override
  protected String extraRepr() {
    return ModuleRepr.f(lambd);
  }
}
