package org.jtensor.optim;

import java.util.function.IntToDoubleFunction;

/** lr(t) = base·factor(t) (torch.optim.lr_scheduler.LambdaLR). */
public final class LambdaLR extends LRScheduler {
  private final IntToDoubleFunction factor;

  public LambdaLR(Optimizer optimizer, IntToDoubleFunction lrLambda) {
    super(optimizer);
    if (lrLambda == null) throw new IllegalArgumentException("LambdaLR(): expected an lr_lambda, got null");
    this.factor = lrLambda;
    start();
  }

  /** PyTorch saves a plain function's lr_lambda as None (only callable objects' fields); the function itself is not checked on load. */
  @Override
  void putTrailing(java.util.Map<String, Object> state) {
    state.put("lr_lambdas", java.util.Collections.singletonList(null));
  }

  @Override
  public double lrAt(int epoch) {
    return baseLr * factor.applyAsDouble(epoch);
  }
}
