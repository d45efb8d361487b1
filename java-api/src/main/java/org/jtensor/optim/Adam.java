package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * Adam (torch.optim.Adam), and with decoupled weight decay AdamW: m ← β₁m + (1−β₁)g,
 * v ← β₂v + (1−β₂)g², p ← p − lr·m̂ / (√v̂ + ε) with bias-corrected m̂, v̂. Adam adds weight decay
 * to the gradient (L2); AdamW shrinks the parameter by lr·λ first. amsgrad divides by √ of the largest v̂
 * so far (state "max_exp_avg_sq"); maximize steps up the gradient. Both are group options too
 * ({@code ParamGroup.set("amsgrad", true)}).
 */
public class Adam extends AbstractOptimizer {
  private final boolean decoupled;
  private final Tensor[] m, v, vMax;  // vMax: amsgrad's max_exp_avg_sq
  private final long[] steps;  // per parameter, as PyTorch's state['step']

  public Adam(List<Tensor> params, double lr) {
    this(params, lr, 0.9, 0.999, 1e-8, 0);
  }

  public Adam(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
    this(params, lr, beta1, beta2, eps, weightDecay, false, false);
  }

  /** PyTorch's Adam(params, lr, betas, eps, weight_decay, amsgrad, maximize). */
  public Adam(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay, boolean amsgrad, boolean maximize) {
    this(ParamGroups.single("Adam", params), lr, beta1, beta2, eps, weightDecay, amsgrad, maximize, false);
  }

  /** Parameter groups (see {@link ParamGroup}): a group's own lr, betas, eps, weight_decay, amsgrad, maximize, the constructor's for the rest. */
  public Adam(Collection<ParamGroup> groups, double lr) {
    this(groups, lr, 0.9, 0.999, 1e-8, 0);
  }

  public Adam(Collection<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay) {
    this(groups, lr, beta1, beta2, eps, weightDecay, false, false);
  }

  /** Parameter groups with the defaults of amsgrad and maximize (a group's own "amsgrad" or "maximize" wins). */
  public Adam(Collection<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay, boolean amsgrad, boolean maximize) {
    this(groups, lr, beta1, beta2, eps, weightDecay, amsgrad, maximize, false);
  }

  Adam(Collection<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay, boolean amsgrad, boolean maximize,
      boolean decoupled) {
    super(groups == null ? null : new ArrayList<>(groups), SchedulerState.entries("lr", lr, "betas", new Object[] {beta1, beta2}, "eps", eps,
        "weight_decay", weightDecay, "amsgrad", amsgrad, "maximize", maximize, "foreach", null, "capturable", false, "differentiable", false,
        "fused", null, "decoupled_weight_decay", decoupled));  // PyTorch's group keys in its order; the unsupported ones have their one value
    this.decoupled = decoupled;
    this.m = new Tensor[params.size()];
    this.v = new Tensor[params.size()];
    this.vMax = new Tensor[params.size()];
    this.steps = new long[params.size()];
  }

  @Override
  public void setMomentum(double momentum) {
    if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("setMomentum(): expects a momentum in [0, 1), got " + momentum);
    setEverywhere("betas", old -> new Object[] {momentum, ((Object[]) old)[1]});
  }

  /** decoupled_weight_decay is the class's (Adam or AdamW), whatever an older state lacking it says. */
  @Override
  protected Object missingFlag(String key) {
    return key.equals("decoupled_weight_decay") ? decoupled : super.missingFlag(key);
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    Object d = group.get("decoupled_weight_decay"), own = defaults().get("decoupled_weight_decay");
    if (d != null && !d.equals(own)) {
      throw new IllegalArgumentException(name + "(): the state is " + (d.equals(Boolean.TRUE) ? "AdamW's" : "Adam's") + " (decoupled_weight_decay="
          + (d.equals(Boolean.TRUE) ? "True" : "False") + "), this optimizer is " + (own.equals(Boolean.TRUE) ? "AdamW" : "Adam"));
    }
    List<?> betas = group.get("betas") instanceof Object[] a ? Arrays.asList(a) : (List<?>) group.get("betas");
    if (betas.size() != 2 || !(betas.get(0) instanceof Number) || !(betas.get(1) instanceof Number)) {
      throw new IllegalArgumentException(name + "(): the group's betas must be two numbers in [0, 1), got " + betas);
    }
    for (int k = 0; k < 2; k++) {  // the constructor's rules (PyTorch does not check a loaded group; NaN would make every later step NaN)
      double b = ((Number) betas.get(k)).doubleValue();
      if (!(b >= 0 && b < 1)) throw new IllegalArgumentException(name + "(): Invalid beta parameter at index " + k + ": " + b);
    }
    ParamGroups.requireNonNegative(name, group, "eps", "epsilon");
    ParamGroups.requireNonNegative(name, group, "weight_decay", "weight_decay");
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    if (steps[i] == 0) return s;
    s.put("step", stepTensor(steps[i]));
    s.put("exp_avg", m[i].detach());
    s.put("exp_avg_sq", v[i].detach());
    if (vMax[i] != null) s.put("max_exp_avg_sq", vMax[i].detach());  // amsgrad's
    return s;
  }

  @Override
  protected List<String> stateNames(Map<String, Object> group) {
    return Boolean.TRUE.equals(group.get("amsgrad")) ? List.of("step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq") : List.of("step", "exp_avg", "exp_avg_sq");
  }

  @Override
  protected void loadState(int i, Map<String, Object> state) {
    if (state.isEmpty()) {
      drop(m[i]);
      drop(v[i]);
      drop(vMax[i]);
      m[i] = v[i] = vMax[i] = null;
      steps[i] = 0;
      return;
    }
    m[i] = adoptLoaded(m[i], state.get("exp_avg"));
    v[i] = adoptLoaded(v[i], state.get("exp_avg_sq"));
    if (state.containsKey("max_exp_avg_sq")) {
      vMax[i] = adoptLoaded(vMax[i], state.get("max_exp_avg_sq"));
    } else {
      drop(vMax[i]);
      vMax[i] = null;
    }
    steps[i] = (Long) state.get("step");
  }

  @Override
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    long t = steps[i] + 1;
    Object[] betas = (Object[]) optionValue(i, "betas");
    double beta1 = (Double) betas[0], beta2 = (Double) betas[1], lr = option(i, "lr"), eps = option(i, "eps"), weightDecay = option(i, "weight_decay");
    boolean amsgrad = Boolean.TRUE.equals(optionValue(i, "amsgrad"));
    if (Boolean.TRUE.equals(optionValue(i, "maximize"))) g = g.neg();
    Tensor base = p;
    DType dt = p.dtype();
    if (weightDecay != 0) {
      if (decoupled) base = p.mul(OpMath.scalar(dt, 1 - lr * weightDecay));
      else g = g.add(p, weightDecay);
    }
    // PyTorch's single-tensor Adam op by op: exp_avg.lerp_(grad, 1-β1), exp_avg_sq.mul_(β2).addcmul_(grad, grad, value=1-β2),
    // param.addcdiv_(exp_avg, denom, value=-step_size), each rounded as PyTorch's, scalars read as float for float32 (see OpMath)
    Tensor mNew = OpMath.lerp(m[i] == null ? Tensor.zerosLike(p) : m[i], g, 1 - beta1);
    Tensor vNew = (v[i] == null ? Tensor.zerosLike(p) : v[i].mul(OpMath.scalar(dt, beta2))).addcmul(g, g, 1 - beta2);
    double bc1 = 1 - Math.pow(beta1, t), bc2 = 1 - Math.pow(beta2, t);
    // amsgrad: torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq), from zeros the first step
    Tensor vMaxNew = amsgrad ? (vMax[i] == null ? Tensor.zerosLike(p) : vMax[i]).maximum(vNew) : null;
    Tensor denom = (amsgrad ? vMaxNew : vNew).sqrt().div(OpMath.scalar(dt, Math.sqrt(bc2))).add_(OpMath.scalar(dt, eps));
    Tensor pNew = base.addcdiv(mNew, denom, -(lr / bc1));
    return () -> {
      p.copy_(pNew);
      m[i] = adopt(m[i], mNew);
      v[i] = adopt(v[i], vNew);
      if (vMaxNew != null) vMax[i] = adopt(vMax[i], vMaxNew);
      steps[i] = t;
    };
  }
}
