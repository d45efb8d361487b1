package org.jtensor.optim;

import java.util.List;
import org.jtensor.Tensor;

/** Stochastic gradient descent with PyTorch's momentum, dampening, weight decay and Nesterov rules. */
public final class SGD extends AbstractOptimizer {
  private final double momentum, dampening, weightDecay;
  private final boolean nesterov;
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
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    Tensor d = weightDecay != 0 ? g.add(p, weightDecay) : g;
    Tensor buffer = null;
    if (momentum != 0) {
      // the first step's buffer is the gradient itself (a copy: d may be the gradient's own handle)
      buffer = buffers[i] == null ? d.clone() : buffers[i].mul(momentum).add_(d, 1 - dampening);
      d = nesterov ? d.add(buffer, momentum) : buffer;
    }
    Tensor pNew = p.add(d, -lr());
    Tensor b = buffer;
    return () -> {
      p.copy_(pNew);
      if (b != null) buffers[i] = adopt(buffers[i], b);
    };
  }
}
