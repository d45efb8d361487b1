package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * A loss of three inputs (GaussianNLLLoss, MarginRankingLoss, CosineEmbeddingLoss, TripletMarginLoss):
 * {@code forward(a, b, c)}; forward with one or two inputs is refused, naming the three.
 */
public abstract class ThreeInputLoss extends Loss {
  ThreeInputLoss(String reduction, String... inputs) {
    super(reduction, inputs);
  }

  /** Refused: three inputs are needed. */
  @Override
  public final Tensor forward(Tensor input, Tensor target) {
    throw wrongArity();
  }

  public abstract Tensor forward(Tensor a, Tensor b, Tensor c);
}
