package org.jtensor.nn;

import org.jtensor.Tensor;

/** softmax along dim (torch.nn.Softmax); {@link #log(int)} makes torch.nn.LogSoftmax. */
public final class Softmax extends Module {
  private final int dim;
  private final boolean log;

  public Softmax(int dim) {
    this(dim, false);
  }

  private Softmax(int dim, boolean log) {
    this.dim = dim;
    this.log = log;
  }

  /** torch.nn.LogSoftmax(dim). */
  public static Softmax log(int dim) {
    Softmax m = new Softmax(dim, true);
    m.reprAs = "LogSoftmax";
    return m;
  }

  @Override
  public Tensor forward(Tensor input) {
    return log ? input.logSoftmax(dim) : input.softmax(dim);
  }

  @Override
  protected String extraRepr() {
    return "dim=" + dim;
  }
}
