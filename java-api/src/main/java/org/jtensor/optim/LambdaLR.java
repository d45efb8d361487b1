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

  /**
   * A LambdaLR's state has lr_lambdas (PyTorch's load_state_dict pops it: KeyError 'lr_lambdas' without), which sets it
   * apart from other schedules' states: LambdaLR has no arguments of its own to check. Its entries (a callable object's
   * fields, None for a function) are not taken: a Java function has no fields to restore.
   */
  @Override
  int checkState(String op, String where, java.util.Map<?, ?> state, int minEpoch) {
    if (!(state.get("lr_lambdas") instanceof java.util.List<?>)) {
      throw new IllegalArgumentException(op + "(): " + where + (state.containsKey("lr_lambdas") ? " has 'lr_lambdas' "
          + SchedulerState.repr(state.get("lr_lambdas")) + "; expected a list" : " has no 'lr_lambdas': it is not a LambdaLR's state"));
    }
    return super.checkState(op, where, state, minEpoch);
  }

  @Override
  public double lrAt(int epoch) {
    return baseLr * factor.applyAsDouble(epoch);
  }
}
