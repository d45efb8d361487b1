package org.jtensor.optim;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * What every optimizer shares: the parameters' handles (held, not owned), the learning rate, the
 * state it owns (momentum buffers, moment estimates) and a step that records nothing and closes
 * every temporary. A subclass states only its update of one parameter.
 */
public abstract class AbstractOptimizer implements Optimizer {
  protected final List<Tensor> params;
  private double lr;
  private final List<Tensor> state = new ArrayList<>();

  protected AbstractOptimizer(List<Tensor> params, double lr) {
    if (params == null || params.isEmpty()) throw new IllegalArgumentException(getClass().getSimpleName() + "(): optimizer got an empty parameter list");
    if (!(lr >= 0)) throw new IllegalArgumentException(getClass().getSimpleName() + "(): Invalid learning rate: " + lr);
    for (Tensor p : params) {
      if (!p.requiresGrad() || !p.isLeaf()) {
        throw new IllegalArgumentException(getClass().getSimpleName() + "(): can't optimize a non-leaf Tensor or one that does not require grad");
      }
    }
    this.params = List.copyOf(params);
    this.lr = lr;
  }

  @Override
  public final double lr() {
    return lr;
  }

  @Override
  public final void setLr(double lr) {
    if (!(lr >= 0)) throw new IllegalArgumentException("setLr(): Invalid learning rate: " + lr);
    this.lr = lr;
  }

  @Override
  public final void step() {
    checkWritable();
    try (GradMode.Scope off = GradMode.noGrad()) {
      for (int i = 0; i < params.size(); i++) {
        Tensor p = params.get(i);
        try (TensorScope s = TensorScope.open()) {
          Tensor g = p.grad();
          if (g != null) update(i, p, g);
        }
      }
      afterStep();
    }
  }

  /** Refuses a read-only parameter that has a gradient before any update: a step failing half-way would leave the model half-stepped. */
  private void checkWritable() {
    for (int i = 0; i < params.size(); i++) {
      Tensor p = params.get(i);
      try (Tensor g = p.grad(); Storage s = g == null ? null : p.untypedStorage()) {
        if (s != null && s.isReadOnly()) {
          throw new IllegalStateException("step(): parameter " + i + " is read-only (over a read-only buffer or a memory-mapped "
              + "file) and cannot be updated; clone() it into a writable parameter first");
        }
      }
    }
  }

  /** Updates parameter i in place from its gradient g; runs inside a scope that closes every temporary. */
  protected abstract void update(int i, Tensor p, Tensor g);

  protected void afterStep() {}

  @Override
  public final void zeroGrad() {
    for (Tensor p : params) p.setGrad(null);
  }

  /** A state tensor the optimizer owns (zeros like p), freed by close(). */
  protected final Tensor newState(Tensor p) {
    Tensor t = TensorScope.escape(Tensor.zerosLike(p));
    state.add(t);
    return t;
  }

  @Override
  public void close() {
    for (Tensor t : state) t.close();
    state.clear();
  }
}
