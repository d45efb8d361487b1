package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** torch.nn.AlphaDropout: alpha dropout of each element with probability p, keeping a SELU network's zero mean and unit variance while training (see {@link Functional#alphaDropout}). */
public final class AlphaDropout extends DropoutNd {
  /** p = 0.5, drawing from the default generator. */
  public AlphaDropout() {
    this(0.5);
  }

  public AlphaDropout(double p) {
    this(p, Generator.defaultGenerator());
  }

  public AlphaDropout(double p, Generator g) {
    super(p, g);
  }

  @Override
  protected Tensor drop(Tensor input, boolean training) {
    return Functional.alphaDropout(input, p, training, g);
  }
}
