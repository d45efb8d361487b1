package org.jtensor.nn;

import java.util.function.BiFunction;
import org.jtensor.Tensor;

/** The adaptive pooling modules: an output size and the Functional op they call with it. */
abstract class AdaptivePooling extends Module {
  private final long[] outputSize;
  private final BiFunction<Tensor, long[], Tensor> pool;

  AdaptivePooling(long[] outputSize, BiFunction<Tensor, long[], Tensor> pool) {
    this.outputSize = outputSize.clone();
    this.pool = pool;
  }

  @Override
  public Tensor forward(Tensor input) {
    return pool.apply(input, outputSize);
  }

  @Override
  protected String extraRepr() {
    return "output_size=" + ModuleRepr.given(outputSize);
  }
}
