package org.jtensor.nn;

import org.jtensor.Tensor;

/** Applies a · sigmoid(b), a and b the halves of dim (torch.nn.GLU(dim)). */
public final class GLU extends Module {
  private final int dim;

  /** GLU(dim = -1), PyTorch's default. */
  public GLU() {
    this(-1);
  }

  public GLU(int dim) {
    this.dim = dim;
  }

  @Override
  public Tensor forward(Tensor input) {
    return input.glu(dim);
  }

  @Override
  protected String extraRepr() {
    return "dim=" + dim;
  }
}
