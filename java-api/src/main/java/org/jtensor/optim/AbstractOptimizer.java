package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * What every optimizer shares: the parameters' handles (held, not owned) in their groups
 * ({@link ParamGroups}: each group's learning rate and options), the state it owns (momentum buffers, moment estimates) and a step that records nothing and closes
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
  protected final List<Tensor> params;  // every group's, in order
  private final ParamGroups groups;
  private final Map<String, Object> defaults;  // lr and the options in PyTorch's order: a group's unless it sets its own
  private final List<Tensor> state = new ArrayList<>();
  private boolean closed;  // close() freed the state, which the subclass's arrays still name

  /** Groups, each one's options over defaults (lr first, then PyTorch's order), checked by checkHyperParameters and checkNewGroup. */
  protected AbstractOptimizer(List<ParamGroup> specs, Map<String, Object> defaults) {
    String name = getClass().getSimpleName();
    this.defaults = Collections.unmodifiableMap(new LinkedHashMap<>(defaults));
    this.groups = ParamGroups.make(name, specs, defaults);
    for (ParamGroups.Group g : groups.groups) {
      checkHyperParameters(name, g.options);
      checkNewGroup(name, g.options);
      g.options.replaceAll((k, v) -> defaults.containsKey(k) ? ParamGroups.normalized(defaults.get(k), v) : v);
    }
    this.params = groups.params;
  }

  /** The constructor's defaults: lr and the options a group leaves out. */
  protected final Map<String, Object> defaults() { return defaults; }

  @Override
  public final List<Tensor> parameters() { return params; }  // List.copyOf: unmodifiable

  @Override
  public final List<Tensor> parameters(int group) {
    ParamGroups.Group g = groups.get("parameters", group);
    return params.subList(g.start, g.end);
  }

  @Override
  public final int paramGroupCount() {
    return groups.groups.size();
  }

  @Override
  public final double lr() {
    return lr(0);
  }

  @Override
  public final double lr(int group) {
    return groups.get("lr", group).lr();
  }

  /** Option key of parameter i's group (a number, as held: lr, momentum, eps...). */
  protected final double option(int i, String key) {
    return (Double) groups.of(i).options.get(key);
  }

  /** Option key of parameter i's group as held (betas: an Object[] of Doubles). */
  protected final Object optionValue(int i, String key) {
    return groups.of(i).options.get(key);
  }

  /** Sets option key in every group (setMomentum: OneCycleLR cycles every group's momentum alike). */
  protected final void setEverywhere(String key, java.util.function.UnaryOperator<Object> value) {
    for (ParamGroups.Group g : groups.groups) g.options.put(key, value.apply(g.options.get(key)));
  }

  /** A scheduler's rate for a group: any number but NaN (a schedule may go negative, as PyTorch's do). */
  final void setScheduledLr(int group, double lr) {
    if (Double.isNaN(lr)) throw new IllegalArgumentException("a scheduler computed a learning rate of NaN");
    groups.get("setLr", group).options.put("lr", lr);
  }

  @Override
  public final double initialLr() {
    return initialLr(0);
  }

  @Override
  public final synchronized double initialLr(int group) {
    ParamGroups.Group g = groups.get("initialLr", group);
    if (Double.isNaN(g.initialLr)) g.initialLr = g.lr();
    return g.initialLr;
  }

  /** The rate initialLr(group) would give, without fixing it: a scheduler's constructor may still refuse its arguments. */
  final synchronized double peekInitialLr(int group) {
    ParamGroups.Group g = groups.get("initialLr", group);
    return Double.isNaN(g.initialLr) ? g.lr() : g.initialLr;
  }

  /** A scheduler's group entries, as PyTorch's OneCycleLR writes them: initial_lr set (not defaulted) and its own keys. */
  final synchronized void setScheduleGroup(int group, double initial, Map<String, Object> keys) {
    ParamGroups.Group g = groups.get("setScheduleGroup", group);
    g.initialLr = initial;
    g.scheduleKeys.putAll(keys);
    groups.scheduleSet = true;
  }

  /** Fixes a group's initialLr at base unless a scheduler fixed it before (a scheduler that was made, once it has set its first rate). */
  final synchronized void fixInitialLr(int group, double base) {
    ParamGroups.Group g = groups.get("initialLr", group);
    if (Double.isNaN(g.initialLr)) g.initialLr = base;
  }

  @Override
  public final void setLr(double lr) {
    setLr(0, lr);
  }

  @Override
  public final void setLr(int group, double lr) {
    if (!(lr >= 0)) throw new IllegalArgumentException("setLr(): Invalid learning rate: " + lr);
    groups.get("setLr", group).options.put("lr", lr);
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

  /** Refuses a read-only or inference parameter that has a gradient before any update: a step failing half-way would leave the model half-stepped. */
  private void checkWritable() {
    for (int i = 0; i < params.size(); i++) {
      Tensor p = params.get(i);
      if (p.isClosed()) throw new IllegalStateException(getClass().getSimpleName() + ".step(): parameter " + i + " is closed (was its module closed?)");
      try (Tensor g = p.grad(); Storage s = g == null ? null : p.untypedStorage()) {
        if (s != null && s.isReadOnly()) {
          throw new IllegalStateException("step(): parameter " + i + " is read-only (over a read-only buffer or a memory-mapped "
              + "file) and cannot be updated; clone() it into a writable parameter first");
        }
        if (s != null && p.isInference() && !GradMode.isInferenceModeEnabled()) {
          throw new IllegalStateException("step(): parameter " + i + " is an inference tensor (made in GradMode.inferenceMode()): "
              + org.jtensor.core.StorageImpl.INFERENCE_WRITE + "; clone() it into a normal parameter first");
        }
        if (g != null && !p.isContiguous()) checkNotExpanded(i, p);
      }
    }
  }

  /** An expanded parameter (ones(1).expand(3)) fails its in-place write, as PyTorch's: refused before the first write, not after. */
  private void checkNotExpanded(int i, Tensor p) {
    long[] sizes = p.shape(), strides = p.stride();
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] > 1 && strides[d] == 0) {
        throw new IllegalArgumentException(getClass().getSimpleName() + ".step(): parameter " + i + ": unsupported operation: more than one "
            + "element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
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

  /** Checks of a group made by the constructor only, not of a loaded one (SGD's nesterov, as PyTorch's). */
  protected void checkNewGroup(String name, Map<String, Object> group) {}

  /** A flag a loaded group lacks: its value in PyTorch's __setstate__ for state saved before the flag existed. */
  protected Object missingFlag(String key) {
    return defaults.get(key) instanceof Boolean ? Boolean.FALSE : null;
  }

  /** Parameter i's state tensors by PyTorch's names (empty before its first step); "step" as a float32 scalar. */
  protected abstract Map<String, Tensor> stateOf(int i);

  /** The names a parameter's state holds once it has one ("step" and the buffers), under its (loaded) group's options. */
  protected abstract List<String> stateNames(Map<String, Object> group);

  /** The least "step" a saved state may hold: 1 (a state is made by the first step) unless the constructor makes it (Adagrad's: 0). */
  protected long firstSavedStep() {
    return 1;
  }

  /**
   * Whether a saved parameter state is no state: PyTorch's step starts afresh from an empty one (an entry reading
   * {@code opt.state[p]} made), except Adagrad's, whose state its constructor makes.
   */
  boolean savedStateIsNone(Map<?, ?> saved) {
    return saved.isEmpty() && firstSavedStep() >= 1;
  }

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
    List<Object> entries = new ArrayList<>();
    for (ParamGroups.Group g : groups.groups) entries.add(g.entry());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("state", states);
    out.put("param_groups", entries);
    return out;
  }

  @Override
  public final synchronized void loadStateDict(Map<String, Object> dict) {
    checkOpen("loadStateDict");
    String name = getClass().getSimpleName() + ".loadStateDict";
    int[] sizes = new int[groups.groups.size()];
    for (int k = 0; k < sizes.length; k++) sizes[k] = groups.groups.get(k).end - groups.groups.get(k).start;
    SavedOptimizerState saved = SavedOptimizerState.read(name, dict, sizes);
    for (int k = 0; k < sizes.length; k++) {
      checkHyperParameters(name, saved.groups().get(k));
      groups.checkScheduleKeys(name, saved.groups().get(k), k);
    }
    Map<Integer, Map<String, Object>> loaded = saved.states(name, params, i -> stateNames(saved.groups().get(groups.indexOf(i))), firstSavedStep(),
        this::savedStateIsNone);
    // Note [A load is whole or nothing]: every copy is made (and may fail) before anything changes
    try (GradMode.Scope off = GradMode.noGrad(); TensorScope s = TensorScope.open()) {
      for (Map.Entry<Integer, Map<String, Object>> e : loaded.entrySet()) {
        Tensor p = params.get(e.getKey());
        for (Map.Entry<String, Object> v : e.getValue().entrySet()) {
          if (v.getValue() instanceof Tensor t) v.setValue(t.to(p.dtype()).to(p.device()).clone());
        }
      }
      for (int k = 0; k < sizes.length; k++) groups.groups.get(k).load(saved.groups().get(k), defaults, this::missingFlag);
      for (int i = 0; i < params.size(); i++) loadState(i, loaded.getOrDefault(i, Map.of()));
    }
  }

  /**
   * Refuses a group whose options are missing or of the wrong kind (the defaults' names, lr checked
   * by the caller). A missing flag (a Boolean or None key: nesterov, capturable, decoupled_weight_decay...)
   * is its default, as PyTorch's __setstate__ sets it for state saved by a version without the key.
   */
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    for (Map.Entry<String, Object> own : defaults.entrySet()) {
      if (own.getKey().equals("lr")) continue;
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
