package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/** torch.nn.FeatureAlphaDropout: alpha dropout of whole channels (dim 1) with probability p while training (see {@link Functional#featureAlphaDropout}). */
public final class FeatureAlphaDropout extends DropoutNd {
  /** p = 0.5, drawing from the default generator. */
  public FeatureAlphaDropout() {
    this(0.5);
  }

  public FeatureAlphaDropout(double p) {
    this(p, Generator.defaultGenerator());
  }

  public FeatureAlphaDropout(double p, Generator g) {
    super(p, g);
  }

  @Override
  protected Tensor drop(Tensor input, boolean training) {
    return Functional.featureAlphaDropout(input, p, training, g);
  }
}
