package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** torch.nn.Dropout1d: zeroes whole channels of [N, C, L] (or [C, L]) with probability p and scales the rest by 1/(1 − p) while training (see {@link Functional#dropout1d}). */
public final class Dropout1d extends DropoutNd {
  /** p = 0.5, drawing from the default generator. */
  public Dropout1d() {
    this(0.5);
  }

  public Dropout1d(double p) {
    this(p, Generator.defaultGenerator());
  }

  public Dropout1d(double p, Generator g) {
    super(p, g);
  }

  @Override
  protected Tensor drop(Tensor input, boolean training) {
    return Functional.dropout1d(input, p, training, g);
  }
}
