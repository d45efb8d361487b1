package org.jtensor.optim;

import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * lr(t) = base·factor(t) (torch.optim.lr_scheduler.LambdaLR): one factor for every parameter group,
 * or a list of them, one per group.
 */
public final class LambdaLR extends LRScheduler {
  private final List<IntToDoubleFunction> factors;  // per group

  public LambdaLR(Optimizer optimizer, IntToDoubleFunction lrLambda) {
    this(optimizer, lrLambda, null);
  }

  /** One factor per parameter group, in order (PyTorch's lr_lambda as a list). */
  public LambdaLR(Optimizer optimizer, List<IntToDoubleFunction> lrLambdas) {
    this(optimizer, null, lrLambdas);
  }

  private LambdaLR(Optimizer optimizer, IntToDoubleFunction one, List<IntToDoubleFunction> each) {
    super(optimizer);
    if (each == null) each = java.util.Collections.nCopies(groupCount(), one);
    else if (each.size() != groupCount()) throw new IllegalArgumentException("LambdaLR(): Expected " + groupCount() + " lr_lambdas, but got " + each.size());
    for (IntToDoubleFunction f : each) if (f == null) throw new IllegalArgumentException("LambdaLR(): expected an lr_lambda, got null");
    this.factors = List.copyOf(each);
    start();
  }

  /** PyTorch saves a plain function's lr_lambda as None (only callable objects' fields); the function itself is not checked on load. */
  @Override
  void putTrailing(java.util.Map<String, Object> state) {
    state.put("lr_lambdas", java.util.Collections.nCopies(groupCount(), null));
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
  public double lrAt(int group, int epoch) {
    return baseLr(group) * factors.get(group).applyAsDouble(epoch);
  }
}
