package org.jtensor.optim;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Tensor;

/**
 * Stochastic gradient descent with PyTorch's momentum, dampening, weight decay and Nesterov rules;
 * maximize steps up the gradient.
 * The constructors taking parameter groups ({@link ParamGroup}) read a group's own lr, momentum,
 * dampening, weight_decay, nesterov and maximize and take the constructor's for those it leaves out; they take
 * a Collection (a List&lt;ParamGroup&gt; erases to the same type as the List&lt;Tensor&gt; ones).
 */
public final class SGD extends AbstractOptimizer {
  private final Tensor[] buffers;

  public SGD(List<Tensor> params, double lr) {
    this(params, lr, 0, 0, 0, false);
  }

  public SGD(List<Tensor> params, double lr, double momentum) {
    this(params, lr, momentum, 0, 0, false);
  }

  public SGD(List<Tensor> params, double lr, double momentum, double dampening, double weightDecay, boolean nesterov) {
    this(params, lr, momentum, dampening, weightDecay, nesterov, false);
  }

  /** PyTorch's SGD(params, lr, momentum, dampening, weight_decay, nesterov, maximize). */
  public SGD(List<Tensor> params, double lr, double momentum, double dampening, double weightDecay, boolean nesterov, boolean maximize) {
    this(ParamGroups.single("SGD", params), lr, momentum, dampening, weightDecay, nesterov, maximize);
  }

  public SGD(Collection<ParamGroup> groups, double lr) {
    this(groups, lr, 0, 0, 0, false);
  }

  public SGD(Collection<ParamGroup> groups, double lr, double momentum) {
    this(groups, lr, momentum, 0, 0, false);
  }

  public SGD(Collection<ParamGroup> groups, double lr, double momentum, double dampening, double weightDecay, boolean nesterov) {
    this(groups, lr, momentum, dampening, weightDecay, nesterov, false);
  }

  public SGD(Collection<ParamGroup> groups, double lr, double momentum, double dampening, double weightDecay, boolean nesterov, boolean maximize) {
    super(groups == null ? null : new java.util.ArrayList<>(groups), SchedulerState.entries("lr", lr, "momentum", momentum, "dampening", dampening,
        "weight_decay", weightDecay, "nesterov", nesterov, "maximize", maximize, "foreach", null, "differentiable", false, "fused", null));
    this.buffers = new Tensor[params.size()];  // PyTorch's group keys in its order; those SGD does not support have their one value
  }

  @Override
  public void setMomentum(double momentum) {
    if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("setMomentum(): expects a momentum in [0, 1), got " + momentum);
    setEverywhere("momentum", old -> momentum);
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    ParamGroups.requireNonNegative(name, group, "momentum", "momentum");  // PyTorch takes any dampening
    ParamGroups.requireNonNegative(name, group, "weight_decay", "weight_decay");
  }

  /** PyTorch checks nesterov when made, not when loaded (its step ignores nesterov without momentum). */
  @Override
  protected void checkNewGroup(String name, Map<String, Object> group) {
    if (Boolean.TRUE.equals(group.get("nesterov")) && (((Number) group.get("momentum")).doubleValue() <= 0
        || ((Number) group.get("dampening")).doubleValue() != 0)) {
      throw new IllegalArgumentException(name + "(): Nesterov momentum requires a momentum and zero dampening");
    }
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    if (buffers[i] != null) s.put("momentum_buffer", buffers[i].detach());
    return s;
  }

  @Override
  protected List<String> stateNames(Map<String, Object> group) {
    return List.of("momentum_buffer");
  }

  /** A momentum_buffer of None is no buffer, as PyTorch's step reads it (older PyTorch releases saved one for every parameter stepped without momentum). */
  @Override
  boolean savedStateIsNone(Map<?, ?> saved) {
    return saved.isEmpty() || saved.size() == 1 && saved.containsKey("momentum_buffer") && saved.get("momentum_buffer") == null;
  }

  @Override
  protected void loadState(int i, Map<String, Object> state) {
    if (state.isEmpty()) {
      drop(buffers[i]);
      buffers[i] = null;
    } else {
      buffers[i] = adoptLoaded(buffers[i], state.get("momentum_buffer"));
    }
  }

  @Override
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    double momentum = option(i, "momentum"), weightDecay = option(i, "weight_decay");
    if (Boolean.TRUE.equals(optionValue(i, "maximize"))) g = g.neg();
    // each add with alpha rounded once, as PyTorch's fused multiply-add (see OpMath)
    Tensor d = weightDecay != 0 ? g.add(p, weightDecay) : g;
    Tensor buffer = null;
    if (momentum != 0) {
      // the first step's buffer is the gradient itself (a copy: d may be the gradient's own handle)
      buffer = buffers[i] == null ? d.clone() : buffers[i].mul(OpMath.scalar(p.dtype(), momentum)).add(d, 1 - option(i, "dampening"));
      d = Boolean.TRUE.equals(optionValue(i, "nesterov")) ? d.add(buffer, momentum) : buffer;
    }
    Tensor pNew = p.add(d, -option(i, "lr"));
    Tensor b = buffer;
    return () -> {
      p.copy_(pNew);
      if (b != null) buffers[i] = adopt(buffers[i], b);
    };
  }
}
