package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * Adagrad (torch.optim.Adagrad): s ← s + g², p ← p − clr·g / (√s + ε) with clr = lr / (1 + (step − 1)·lr_decay).
 * State by PyTorch's names: step, sum. As PyTorch's, every parameter has a state from the start (step 0, sum
 * filled with the constructor's initial_accumulator_value: PyTorch ignores a group's own), so a fresh
 * optimizer's state dict lists them all. Group options: lr, lr_decay, eps, weight_decay, maximize.
 */
public final class Adagrad extends AbstractOptimizer {
  private final Tensor[] sum;  // null: the constructor's state, made when first needed
  private final long[] steps;

  public Adagrad(List<Tensor> params) {
    this(params, 1e-2);
  }

  public Adagrad(List<Tensor> params, double lr) {
    this(ParamGroups.single("Adagrad", params), lr);
  }

  public Adagrad(List<Tensor> params, double lr, double lrDecay, double weightDecay, double initialAccumulatorValue, double eps) {
    this(ParamGroups.single("Adagrad", params), lr, lrDecay, weightDecay, initialAccumulatorValue, eps);
  }

  /** Parameter groups (see {@link ParamGroup}); PyTorch's defaults for the rest: no lr decay or weight decay, accumulators from 0, eps 1e-10. */
  public Adagrad(Collection<ParamGroup> groups, double lr) {
    this(groups, lr, 0, 0, 0, 1e-10);
  }

  public Adagrad(Collection<ParamGroup> groups, double lr, double lrDecay, double weightDecay, double initialAccumulatorValue, double eps) {
    super(groups == null ? null : new ArrayList<>(groups), SchedulerState.entries("lr", lr, "lr_decay", lrDecay, "eps", eps, "weight_decay",
        weightDecay, "initial_accumulator_value", initialAccumulatorValue, "foreach", null, "maximize", false, "differentiable", false,
        "fused", null));  // PyTorch's group keys in its order; the unsupported ones have their one value
    this.sum = new Tensor[params.size()];
    this.steps = new long[params.size()];
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    ParamGroups.requireNonNegative(name, group, "lr_decay", "lr_decay");  // PyTorch's order
    ParamGroups.requireNonNegative(name, group, "weight_decay", "weight_decay");
    ParamGroups.requireNonNegative(name, group, "initial_accumulator_value", "initial_accumulator_value");
    ParamGroups.requireNonNegative(name, group, "eps", "epsilon");
  }

  /** The sum PyTorch's constructor makes: full_like(p, initial_accumulator_value). */
  private Tensor initialSum(Tensor p) {
    return Tensor.full(p.shape(), (Double) defaults().get("initial_accumulator_value"), p.dtype(), p.device());
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    s.put("step", stepTensor(steps[i]));
    s.put("sum", sum[i] == null ? initialSum(params.get(i)) : sum[i].detach());
    return s;
  }

  @Override
  protected List<String> stateNames(Map<String, Object> group) {
    return List.of("step", "sum");
  }

  @Override
  protected long firstSavedStep() {
    return 0;
  }

  /** A parameter the loaded state leaves out starts afresh (PyTorch's step would fail with a KeyError). */
  @Override
  protected void loadState(int i, Map<String, Object> state) {
    if (state.isEmpty()) {
      drop(sum[i]);
      sum[i] = null;
      steps[i] = 0;
    } else {
      sum[i] = adoptLoaded(sum[i], state.get("sum"));
      steps[i] = (Long) state.get("step");
    }
  }

  @Override
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    long t = steps[i] + 1;
    double lr = option(i, "lr"), weightDecay = option(i, "weight_decay");
    DType dt = p.dtype();
    if (Boolean.TRUE.equals(optionValue(i, "maximize"))) g = g.neg();
    if (weightDecay != 0) g = g.add(p, weightDecay);
    double clr = lr / (1 + (t - 1) * option(i, "lr_decay"));  // Python floats
    // PyTorch's single-tensor Adagrad op by op: state_sum.addcmul_(grad, grad, value=1), std = state_sum.sqrt().add_(eps),
    // param.addcdiv_(grad, std, value=-clr)
    Tensor sNew = (sum[i] == null ? initialSum(p) : sum[i]).addcmul(g, g, 1);
    Tensor pNew = p.addcdiv(g, sNew.sqrt().add_(OpMath.scalar(dt, option(i, "eps"))), -clr);
    return () -> {
      p.copy_(pNew);
      sum[i] = adopt(sum[i], sNew);
      steps[i] = t;
    };
  }
}
