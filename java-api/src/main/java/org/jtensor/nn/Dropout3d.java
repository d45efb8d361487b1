package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** torch.nn.Dropout3d: zeroes whole channels of [N, C, D, H, W] (or [C, D, H, W]) with probability p and scales the rest by 1/(1 − p) while training (see {@link Functional#dropout3d}). */
public final class Dropout3d extends DropoutNd {
  /** p = 0.5, drawing from the default generator. */
  public Dropout3d() {
    this(0.5);
  }

  public Dropout3d(double p) {
    this(p, Generator.defaultGenerator());
  }

  public Dropout3d(double p, Generator g) {
    super(p, g);
  }

  @Override
  protected Tensor drop(Tensor input, boolean training) {
    return Functional.dropout3d(input, p, training, g);
  }
}
