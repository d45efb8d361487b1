package org.jtensor.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p>step(), stateDict(), loadStateDict() and close() hold the optimizer's lock: two threads stepping
 * one optimizer step it twice, one after the other, never both from the same state.
 */
public abstract class AbstractOptimizer implements Optimizer {
  private static final List<String> SCHEDULE_KEYS = List.of("max_lr", "min_lr", "max_momentum", "base_momentum");
  protected final List<Tensor> params;
  private double lr;  // the group's, as PyTorch keeps it
  private double initialLr = Double.NaN;  // set by the first scheduler
  // Keys a scheduler adds to PyTorch's group (OneCycleLR: max_lr, min_lr, max_momentum,
  // base_momentum), kept in the state dict so PyTorch's scheduler resumes from it
  private final Map<String, Object> scheduleKeys = new LinkedHashMap<>();
  // A OneCycleLR made on this optimizer set initial_lr and scheduleKeys from its arguments, which it keeps: a loaded
  // group holding other values is refused (PyTorch's OneCycleLR would go on from the group's, jtensor's from its own)
  private boolean scheduleSet;
  private final List<Tensor> state = new ArrayList<>();
  private boolean closed;  // close() freed the state, which the subclass's arrays still name

  protected AbstractOptimizer(List<Tensor> params, double lr) {
    if (params == null || params.isEmpty()) throw new IllegalArgumentException(getClass().getSimpleName() + "(): optimizer got an empty parameter list");
    if (!(lr >= 0)) throw new IllegalArgumentException(getClass().getSimpleName() + "(): Invalid learning rate: " + lr);
    java.util.Set<Tensor> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Tensor p : params) {
      if (p == null) throw new IllegalArgumentException(getClass().getSimpleName() + "(): optimizer can only optimize Tensors, but one of the params is null");
      if (p.isClosed()) throw new IllegalArgumentException(getClass().getSimpleName() + "(): parameter " + params.indexOf(p) + " is closed");
      if (!seen.add(p)) {  // PyTorch warns "in future, this will cause an error"; stepped twice from one state, the last write would win
        throw new IllegalArgumentException(getClass().getSimpleName() + "(): optimizer contains a parameter group with duplicate parameters "
            + "(parameter " + params.indexOf(p) + " is listed again); list each once, as Module.parameters() does");
      }
      // a frozen leaf (requiresGrad false) is taken, as PyTorch's: it has no gradient, so step() skips it until unfrozen
      if (!p.isLeaf() && !p.retainsGrad()) {  // PyTorch: not (param.is_leaf or param.retains_grad)
        throw new IllegalArgumentException(getClass().getSimpleName() + "(): can't optimize a non-leaf Tensor");
      }
    }
    this.params = List.copyOf(params);
    this.lr = lr;
  }

  @Override
  public final List<Tensor> parameters() {
    return params;  // List.copyOf: unmodifiable
  }

  @Override
  public final double lr() {
    return lr;
  }

  /** A scheduler's rate: any number but NaN (a schedule may go negative, as PyTorch's do). */
  final void setScheduledLr(double lr) {
    if (Double.isNaN(lr)) throw new IllegalArgumentException("a scheduler computed a learning rate of NaN");
    this.lr = lr;
  }

  @Override
  public final synchronized double initialLr() {
    if (Double.isNaN(initialLr)) initialLr = lr;
    return initialLr;
  }

  /** The rate initialLr() would give, without fixing it: a scheduler's constructor may still refuse its arguments. */
  final synchronized double peekInitialLr() {
    return Double.isNaN(initialLr) ? lr : initialLr;
  }

  /** A scheduler's group entries, as PyTorch's OneCycleLR writes them: initial_lr set (not defaulted) and its own keys. */
  final synchronized void setScheduleGroup(double initial, Map<String, Object> keys) {
    initialLr = initial;
    scheduleKeys.putAll(keys);
    scheduleSet = true;
  }

  /**
   * Refuses a group whose initial_lr or OneCycleLR entries are not numbers, or (once a OneCycleLR set them on this
   * optimizer) differ from that scheduler's: it would continue with its own arguments where PyTorch's reads the group's.
   */
  private void checkScheduleKeys(String name, Map<String, Object> group) {
    List<String> keys = new ArrayList<>(SCHEDULE_KEYS);
    keys.add(0, "initial_lr");
    for (String key : keys) {
      if (!group.containsKey(key)) continue;
      Object v = group.get(key);
      if (!(v instanceof Number n) || v instanceof Boolean || Double.isNaN(n.doubleValue())) {
        throw new IllegalArgumentException(name + "(): the group's '" + key + "' is " + SchedulerState.repr(v) + "; expected a number");
      }
      Object own = key.equals("initial_lr") ? (Double) initialLr : scheduleKeys.get(key);
      if (scheduleSet && own instanceof Number o && o.doubleValue() != n.doubleValue()) {
        throw new IllegalArgumentException(name + "(): the group's '" + key + "' is " + v + ", the OneCycleLR made on this optimizer has " + o
            + " (PyTorch's would go on from the group's); make the OneCycleLR with the arguments the state was saved with");
      }
    }
  }

  /** Fixes initialLr at base unless a scheduler fixed it before (a scheduler that was made, once it has set its first rate). */
  final synchronized void fixInitialLr(double base) {
    if (Double.isNaN(initialLr)) initialLr = base;
  }

  @Override
  public final void setLr(double lr) {
    if (!(lr >= 0)) throw new IllegalArgumentException("setLr(): Invalid learning rate: " + lr);
    this.lr = lr;
  }

  @Override
  public final synchronized void step() {
    checkOpen("step");
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

  private void checkOpen(String op) {
    if (closed) throw new IllegalStateException(getClass().getSimpleName() + "." + op + "(): the optimizer is closed (its state was freed)");
  }

  /** Refuses a read-only parameter that has a gradient before any update: a step failing half-way would leave the model half-stepped. */
  private void checkWritable() {
    for (int i = 0; i < params.size(); i++) {
      Tensor p = params.get(i);
      if (p.isClosed()) throw new IllegalStateException(getClass().getSimpleName() + ".step(): parameter " + i + " is closed (was its module closed?)");
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

  /** The group's hyperparameters besides lr and params, in PyTorch's names and order. */
  protected abstract Map<String, Object> hyperParameters();

  /** Adopts a loaded group's hyperparameters (already checked by {@link #checkHyperParameters}). */
  protected abstract void setHyperParameters(Map<String, Object> group);

  /** Parameter i's state tensors by PyTorch's names (empty before its first step); "step" as a float32 scalar. */
  protected abstract Map<String, Tensor> stateOf(int i);

  /** The names a parameter's state holds once it has one ("step" and the buffers). */
  protected abstract List<String> stateNames();

  /**
   * Replaces parameter i's state with the loaded values (checked: every name, the parameter's
   * shape; tensors already copied, "step" a Long); must not allocate, so a load cannot fail half-way.
   */
  protected abstract void loadState(int i, Map<String, Object> state);

  @Override
  public final synchronized Map<String, Object> stateDict() {
    checkOpen("stateDict");
    Map<Object, Object> states = new LinkedHashMap<>();
    for (int i = 0; i < params.size(); i++) {
      Map<String, Tensor> s = stateOf(i);
      if (!s.isEmpty()) states.put((long) i, new LinkedHashMap<String, Object>(s));
    }
    Map<String, Object> group = new LinkedHashMap<>();
    group.put("lr", lr);
    group.putAll(hyperParameters());
    if (!Double.isNaN(initialLr)) group.put("initial_lr", initialLr);
    group.putAll(scheduleKeys);
    List<Object> indices = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) indices.add((long) i);
    group.put("params", indices);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("state", states);
    out.put("param_groups", List.of(group));
    return out;
  }

  @Override
  public final synchronized void loadStateDict(Map<String, Object> dict) {
    checkOpen("loadStateDict");
    String name = getClass().getSimpleName() + ".loadStateDict";
    SavedOptimizerState saved = SavedOptimizerState.read(name, dict, params.size());
    Map<String, Object> group = saved.group();
    checkHyperParameters(name, group);
    checkScheduleKeys(name, group);
    Map<Integer, Map<String, Object>> loaded = saved.states(name, params, stateNames());
    // Note [A load is whole or nothing]: every copy is made (and may fail) before anything changes
    try (GradMode.Scope off = GradMode.noGrad(); TensorScope s = TensorScope.open()) {
      for (Map.Entry<Integer, Map<String, Object>> e : loaded.entrySet()) {
        Tensor p = params.get(e.getKey());
        for (Map.Entry<String, Object> v : e.getValue().entrySet()) {
          if (v.getValue() instanceof Tensor t) v.setValue(t.to(p.dtype()).to(p.device()).clone());
        }
      }
      lr = saved.lr();
      if (group.get("initial_lr") instanceof Number initial) initialLr = initial.doubleValue();
      for (String key : SCHEDULE_KEYS) if (group.get(key) instanceof Number v) scheduleKeys.put(key, v.doubleValue());
      setHyperParameters(group);
      for (int i = 0; i < params.size(); i++) loadState(i, loaded.getOrDefault(i, Map.of()));
    }
  }

  /**
   * Refuses a group whose hyperparameters are missing or of the wrong kind (names as hyperParameters()
   * gives them). A missing flag (a Boolean or None key: nesterov, capturable, decoupled_weight_decay...)
   * is its default, as PyTorch's __setstate__ sets it for state saved by a version without the key.
   */
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    for (Map.Entry<String, Object> own : hyperParameters().entrySet()) {
      Object v = group.get(own.getKey());
      if (v == null && !group.containsKey(own.getKey()) && (own.getValue() == null || own.getValue() instanceof Boolean)) continue;
      boolean ok = own.getValue() == null || (own.getValue() instanceof Number ? v instanceof Number
          : own.getValue() instanceof Boolean ? v instanceof Boolean : own.getValue() instanceof Object[] ? v instanceof List<?> || v instanceof Object[] : true);
      if (!ok) throw new IllegalArgumentException(name + "(): the group's '" + own.getKey() + "' is " + v);
    }
  }

  /** Frees a state tensor the optimizer no longer keeps (a loaded state without it); null is ignored. */
  protected final void drop(Tensor old) {
    if (old == null) return;
    state.remove(old);
    old.close();
  }

  /** A loaded state tensor (already a copy in the parameter's dtype and device, made in the load's scope) kept in old's place. */
  protected final Tensor adoptLoaded(Tensor old, Object loaded) {
    return adopt(old, (Tensor) loaded);
  }

  /** PyTorch's "step": a float32 scalar. */
  protected static Tensor stepTensor(long step) {
    return Tensor.scalar((double) step, org.jtensor.DType.FLOAT32);
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (Tensor t : state) t.close();
    state.clear();
  }
}
