package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** torch.nn.Dropout2d: zeroes whole channels of [N, C, H, W] with probability p and scales the rest by 1/(1 − p) while training (see {@link Functional#dropout2d}). */
public final class Dropout2d extends DropoutNd {
  /** p = 0.5, drawing from the default generator. */
  public Dropout2d() {
    this(0.5);
  }

  public Dropout2d(double p) {
    this(p, Generator.defaultGenerator());
  }

  public Dropout2d(double p, Generator g) {
    super(p, g);
  }

  @Override
  protected Tensor drop(Tensor input, boolean training) {
    return Functional.dropout2d(input, p, training, g);
  }
}
