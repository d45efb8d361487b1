package org.jtensor.optim;

import java.util.List;
import org.jtensor.Tensor;

/**
 * Adam (torch.optim.Adam), and with decoupled weight decay AdamW: m ← β₁m + (1−β₁)g,
 * v ← β₂v + (1−β₂)g², p ← p − lr·m̂ / (√v̂ + ε) with bias-corrected m̂, v̂. Adam adds weight decay
 * to the gradient (L2); AdamW shrinks the parameter by lr·λ first.
 */
public class Adam extends AbstractOptimizer {
  private final double beta1, beta2, eps, weightDecay;
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
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    long t = steps[i] + 1;
    Tensor base = p;
    if (weightDecay != 0) {
      if (decoupled) base = p.mul(1 - lr() * weightDecay);
      else g = g.add(p, weightDecay);
    }
    // the first step's moments are (1 - beta) times the gradient: what the update of zeros gives
    Tensor mNew = m[i] == null ? g.mul(1 - beta1) : m[i].mul(beta1).add_(g, 1 - beta1);
    Tensor vNew = v[i] == null ? g.mul(g).mul(1 - beta2) : v[i].mul(beta2).add_(g.mul(g), 1 - beta2);
    double bc1 = 1 - Math.pow(beta1, t), bc2 = 1 - Math.pow(beta2, t);
    Tensor denom = vNew.sqrt().div(Math.sqrt(bc2)).add_(eps);
    Tensor pNew = base.sub(mNew.div(denom).mul(lr() / bc1));
    return () -> {
      p.copy_(pNew);
      m[i] = adopt(m[i], mNew);
      v[i] = adopt(v[i], vNew);
      steps[i] = t;
    };
  }
}
