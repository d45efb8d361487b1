package org.jtensor.optim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * Adam (torch.optim.Adam), and with decoupled weight decay AdamW: m ← β₁m + (1−β₁)g,
 * v ← β₂v + (1−β₂)g², p ← p − lr·m̂ / (√v̂ + ε) with bias-corrected m̂, v̂. Adam adds weight decay
 * to the gradient (L2); AdamW shrinks the parameter by lr·λ first.
 */
public class Adam extends AbstractOptimizer {
  private double beta1, beta2, eps, weightDecay;  // a loaded state dict may set them
  private final boolean decoupled;
  private final Tensor[] m, v;
  private final long[] steps;  // per parameter, as PyTorch's state['step']

  public Adam(List<Tensor> params, double lr) {
    this(params, lr, 0.9, 0.999, 1e-8, 0);
  }

  public Adam(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
    this(params, lr, beta1, beta2, eps, weightDecay, false);
  }

  Adam(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay, boolean decoupled) {
    super(params, lr);
    String name = decoupled ? "AdamW" : "Adam";
    if (!(beta1 >= 0 && beta1 < 1)) throw new IllegalArgumentException(name + "(): Invalid beta parameter at index 0: " + beta1);
    if (!(beta2 >= 0 && beta2 < 1)) throw new IllegalArgumentException(name + "(): Invalid beta parameter at index 1: " + beta2);
    if (!(eps >= 0)) throw new IllegalArgumentException(name + "(): Invalid epsilon value: " + eps);
    if (!(weightDecay >= 0)) throw new IllegalArgumentException(name + "(): Invalid weight_decay value: " + weightDecay);
    this.beta1 = beta1;
    this.beta2 = beta2;
    this.eps = eps;
    this.weightDecay = weightDecay;
    this.decoupled = decoupled;
    this.m = new Tensor[params.size()];
    this.v = new Tensor[params.size()];
    this.steps = new long[params.size()];
  }

  @Override
  public void setMomentum(double momentum) {
    if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("setMomentum(): expects a momentum in [0, 1), got " + momentum);
    this.beta1 = momentum;
  }

  @Override
  protected Map<String, Object> hyperParameters() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("betas", new Object[] {beta1, beta2});
    h.put("eps", eps);
    h.put("weight_decay", weightDecay);
    h.put("amsgrad", false);
    h.put("maximize", false);
    h.put("foreach", null);
    h.put("capturable", false);
    h.put("differentiable", false);
    h.put("fused", null);
    h.put("decoupled_weight_decay", decoupled);
    return h;
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    for (String off : new String[] {"amsgrad", "maximize"}) {
      if (Boolean.TRUE.equals(group.get(off))) throw new IllegalArgumentException(name + "(): " + off + "=True is not supported by jtensor's Adam");
    }
    Object d = group.get("decoupled_weight_decay");
    if (d != null && !d.equals(decoupled)) {
      throw new IllegalArgumentException(name + "(): the state is " + (decoupled ? "Adam's" : "AdamW's") + " (decoupled_weight_decay="
          + (d.equals(Boolean.TRUE) ? "True" : "False") + "), this optimizer is " + (decoupled ? "AdamW" : "Adam"));
    }
    List<?> betas = group.get("betas") instanceof Object[] a ? java.util.Arrays.asList(a) : (List<?>) group.get("betas");
    if (betas.size() != 2 || !(betas.get(0) instanceof Number b1) || !(betas.get(1) instanceof Number b2)
        || !(b1.doubleValue() >= 0 && b1.doubleValue() < 1) || !(b2.doubleValue() >= 0 && b2.doubleValue() < 1)) {
      throw new IllegalArgumentException(name + "(): the group's betas must be two numbers in [0, 1), got " + betas);
    }
    // the constructor's rules (PyTorch does not check a loaded group; a NaN eps would make every later step NaN)
    if (!(((Number) group.get("eps")).doubleValue() >= 0)) throw new IllegalArgumentException(name + "(): Invalid epsilon value: " + group.get("eps"));
    if (!(((Number) group.get("weight_decay")).doubleValue() >= 0)) {
      throw new IllegalArgumentException(name + "(): Invalid weight_decay value: " + group.get("weight_decay"));
    }
  }

  @Override
  protected void setHyperParameters(Map<String, Object> group) {
    List<?> betas = group.get("betas") instanceof Object[] a ? java.util.Arrays.asList(a) : (List<?>) group.get("betas");
    beta1 = ((Number) betas.get(0)).doubleValue();
    beta2 = ((Number) betas.get(1)).doubleValue();
    eps = ((Number) group.get("eps")).doubleValue();
    weightDecay = ((Number) group.get("weight_decay")).doubleValue();
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    if (steps[i] == 0) return s;
    s.put("step", stepTensor(steps[i]));
    s.put("exp_avg", m[i].detach());
    s.put("exp_avg_sq", v[i].detach());
    return s;
  }

  @Override
  protected List<String> stateNames() {
    return List.of("step", "exp_avg", "exp_avg_sq");
  }

  @Override
  protected void loadState(int i, Map<String, Object> state) {
    if (state.isEmpty()) {
      drop(m[i]);
      drop(v[i]);
      m[i] = v[i] = null;
      steps[i] = 0;
      return;
    }
    m[i] = adoptLoaded(m[i], state.get("exp_avg"));
    v[i] = adoptLoaded(v[i], state.get("exp_avg_sq"));
    steps[i] = (Long) state.get("step");
  }

  @Override
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    long t = steps[i] + 1;
    Tensor base = p;
    DType dt = p.dtype();
    if (weightDecay != 0) {
      if (decoupled) base = p.mul(OpMath.scalar(dt, 1 - lr() * weightDecay));
      else g = OpMath.add(g, p, weightDecay);
    }
    // PyTorch's single-tensor Adam op by op: exp_avg.lerp_(grad, 1-β1), exp_avg_sq.mul_(β2).addcmul_(grad, grad, value=1-β2),
    // param.addcdiv_(exp_avg, denom, value=-step_size), each rounded as PyTorch's, scalars read as float for float32 (see OpMath)
    Tensor mNew = OpMath.lerp(m[i] == null ? Tensor.zerosLike(p) : m[i], g, 1 - beta1);
    Tensor vNew = OpMath.addcmul(v[i] == null ? Tensor.zerosLike(p) : v[i].mul(OpMath.scalar(dt, beta2)), g, g, 1 - beta2);
    double bc1 = 1 - Math.pow(beta1, t), bc2 = 1 - Math.pow(beta2, t);
    Tensor denom = vNew.sqrt().div(OpMath.scalar(dt, Math.sqrt(bc2))).add_(OpMath.scalar(dt, eps));
    Tensor pNew = OpMath.addcdiv(base, mNew, denom, -(lr() / bc1));
    return () -> {
      p.copy_(pNew);
      m[i] = adopt(m[i], mNew);
      v[i] = adopt(v[i], vNew);
      steps[i] = t;
    };
  }
}
