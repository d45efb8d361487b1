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
 *
 * <p>Note [A step is whole or nothing] step() first computes every parameter's new value and state
 * into fresh tensors ({@link #prepare}), changing nothing, and only then writes them: each
 * parameter by an in-place copy, each state by adopting the fresh tensor. The writes allocate
 * nothing, so a step that runs out of memory (or fails any other way) fails before the first
 * write: parameters, state and step counts stay as they were, and the next step() after memory is
 * back is the step the failed one would have been. The price is the temporaries of all parameters
 * at once (PyTorch's foreach implementation holds as many).
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
    try (GradMode.Scope off = GradMode.noGrad(); TensorScope s = TensorScope.open()) {
      List<Runnable> writes = new ArrayList<>(params.size());
      for (int i = 0; i < params.size(); i++) {
        Tensor p = params.get(i);
        Tensor g = p.grad();
        if (g != null) writes.add(prepare(i, p, g));
      }
      for (Runnable w : writes) w.run();
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

  /**
   * Computes parameter i's new value and state from its gradient g into fresh tensors, inside a
   * scope that closes every temporary, changing neither p nor the state; returns the writes that
   * store them, which must not allocate: {@code p.copy_(fresh)} and {@link #adopt}.
   */
  protected abstract Runnable prepare(int i, Tensor p, Tensor g);

  @Override
  public final void zeroGrad() {
    for (Tensor p : params) p.setGrad(null);
  }

  /** Makes fresh (made by prepare, in the step's scope) the optimizer's own state in place of old (null the first time), closing old. */
  protected final Tensor adopt(Tensor old, Tensor fresh) {
    TensorScope.escape(fresh);
    if (old != null) {
      state.remove(old);
      old.close();
    }
    state.add(fresh);
    return fresh;
  }

  @Override
  public void close() {
    for (Tensor t : state) t.close();
    state.clear();
  }
}
