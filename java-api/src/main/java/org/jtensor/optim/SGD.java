package org.jtensor.optim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Tensor;

/** Stochastic gradient descent with PyTorch's momentum, dampening, weight decay and Nesterov rules. */
public final class SGD extends AbstractOptimizer {
  private double momentum, dampening, weightDecay;  // a loaded state dict may set them
  private boolean nesterov;
  private final Tensor[] buffers;

  public SGD(List<Tensor> params, double lr) {
    this(params, lr, 0, 0, 0, false);
  }

  public SGD(List<Tensor> params, double lr, double momentum) {
    this(params, lr, momentum, 0, 0, false);
  }

  public SGD(List<Tensor> params, double lr, double momentum, double dampening, double weightDecay, boolean nesterov) {
    super(params, lr);
    if (!(momentum >= 0)) throw new IllegalArgumentException("SGD(): Invalid momentum value: " + momentum);
    if (!(weightDecay >= 0)) throw new IllegalArgumentException("SGD(): Invalid weight_decay value: " + weightDecay);
    if (nesterov && (momentum <= 0 || dampening != 0)) {
      throw new IllegalArgumentException("SGD(): Nesterov momentum requires a momentum and zero dampening");
    }
    this.momentum = momentum;
    this.dampening = dampening;
    this.weightDecay = weightDecay;
    this.nesterov = nesterov;
    this.buffers = new Tensor[params.size()];
  }

  @Override
  public void setMomentum(double momentum) {
    if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("setMomentum(): expects a momentum in [0, 1), got " + momentum);
    this.momentum = momentum;
  }

  @Override
  protected Map<String, Object> hyperParameters() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("momentum", momentum);
    h.put("dampening", dampening);
    h.put("weight_decay", weightDecay);
    h.put("nesterov", nesterov);
    h.put("maximize", false);
    h.put("foreach", null);
    h.put("differentiable", false);
    h.put("fused", null);
    return h;
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    if (Boolean.TRUE.equals(group.get("maximize"))) throw new IllegalArgumentException(name + "(): maximize=True is not supported by jtensor's SGD");
    for (String key : new String[] {"momentum", "weight_decay"}) {  // the constructor's rules (PyTorch takes any dampening)
      if (!(((Number) group.get(key)).doubleValue() >= 0)) throw new IllegalArgumentException(name + "(): Invalid " + key + " value: " + group.get(key));
    }
  }

  @Override
  protected void setHyperParameters(Map<String, Object> group) {
    momentum = ((Number) group.get("momentum")).doubleValue();
    dampening = ((Number) group.get("dampening")).doubleValue();
    weightDecay = ((Number) group.get("weight_decay")).doubleValue();
    nesterov = Boolean.TRUE.equals(group.get("nesterov"));  // absent from older PyTorch versions' state: False
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    if (buffers[i] != null) s.put("momentum_buffer", buffers[i].detach());
    return s;
  }

  @Override
  protected List<String> stateNames() {
    return List.of("momentum_buffer");
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
    // each add with alpha rounded once, as PyTorch's fused multiply-add (see OpMath)
    Tensor d = weightDecay != 0 ? OpMath.add(g, p, weightDecay) : g;
    Tensor buffer = null;
    if (momentum != 0) {
      // the first step's buffer is the gradient itself (a copy: d may be the gradient's own handle)
      buffer = buffers[i] == null ? d.clone() : OpMath.add(buffers[i].mul(OpMath.scalar(p.dtype(), momentum)), d, 1 - dampening);
      d = nesterov ? OpMath.add(d, buffer, momentum) : buffer;
    }
    Tensor pNew = OpMath.add(p, d, -lr());
    Tensor b = buffer;
    return () -> {
      p.copy_(pNew);
      if (b != null) buffers[i] = adopt(buffers[i], b);
    };
  }
}
