package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtensor.Tensor;

/**
 * An optimizer's parameter groups (PyTorch's param_groups): every parameter in one list, numbered
 * across the groups in order (as PyTorch's state dict numbers them), and each group's range of it
 * with its options (lr first, then the optimizer's options in PyTorch's order), its initial_lr and
 * a OneCycleLR's entries. Options are held as the state dict writes them: numbers as Double, betas
 * as an Object[] of Doubles.
 */
final class ParamGroups {
  static final class Group {
    final int start, end;  // the group's parameters: params[start, end)
    Map<String, Object> options;
    double initialLr = Double.NaN;  // set by the first scheduler
    final Map<String, Object> scheduleKeys = new LinkedHashMap<>();  // OneCycleLR's, kept for PyTorch's resume

    Group(int start, int end, Map<String, Object> options) {
      this.start = start;
      this.end = end;
      this.options = options;
    }

    double lr() {
      return (Double) options.get("lr");
    }

    /**
     * Takes a loaded group (checked): its lr, the optimizer's options (a flag it lacks as missingFlag gives it), initial_lr
     * and OneCycleLR's keys; options beyond the optimizer's stay this group's own.
     */
    void load(Map<String, Object> group, Map<String, Object> defaults, java.util.function.Function<String, Object> missingFlag) {
      Map<String, Object> o = new LinkedHashMap<>(options);
      o.put("lr", ((Number) group.get("lr")).doubleValue());
      for (String key : defaults.keySet()) {
        if (!key.equals("lr")) o.put(key, group.containsKey(key) ? normalized(defaults.get(key), group.get(key)) : missingFlag.apply(key));
      }
      options = o;
      if (group.get("initial_lr") instanceof Number initial) initialLr = initial.doubleValue();
      for (String key : SCHEDULE_KEYS) if (group.get(key) instanceof Number v) scheduleKeys.put(key, v.doubleValue());
    }

    /** The state dict's entry: the options, initial_lr once set, OneCycleLR's keys, then the parameters' indices. */
    Map<String, Object> entry() {
      Map<String, Object> e = new LinkedHashMap<>(options);
      if (!Double.isNaN(initialLr)) e.put("initial_lr", initialLr);
      e.putAll(scheduleKeys);
      List<Object> indices = new ArrayList<>();
      for (int i = start; i < end; i++) indices.add((long) i);
      e.put("params", indices);
      return e;
    }
  }

  private static final List<String> SCHEDULE_KEYS = List.of("max_lr", "min_lr", "max_momentum", "base_momentum");
  final List<Tensor> params;
  final List<Group> groups;
  // A OneCycleLR made on this optimizer set initial_lr and its group keys from its arguments, which it keeps: a loaded
  // group holding other values is refused (PyTorch's OneCycleLR would go on from the group's, jtensor's from its own)
  boolean scheduleSet;
  private final int[] groupOf;

  private ParamGroups(List<Tensor> params, List<Group> groups) {
    this.params = params;
    this.groups = groups;
    this.groupOf = new int[params.size()];
    for (int g = 0; g < groups.size(); g++) Arrays.fill(groupOf, groups.get(g).start, groups.get(g).end, g);
  }

  /** The one group of a constructor given a parameter list: PyTorch's refusal of an empty one. */
  static List<ParamGroup> single(String name, List<Tensor> params) {
    if (params == null || params.isEmpty()) throw new IllegalArgumentException(name + "(): optimizer got an empty parameter list");
    return List.of(ParamGroup.of(params));
  }

  /**
   * The groups with their options: the group's own over defaults (lr first), only lr checked; the
   * parameters checked as PyTorch's add_param_group checks them (a group may be empty, as PyTorch's).
   */
  static ParamGroups make(String name, List<ParamGroup> specs, Map<String, Object> defaults) {
    if (specs == null || specs.isEmpty()) throw new IllegalArgumentException(name + "(): optimizer got an empty parameter list");
    List<Tensor> all = new ArrayList<>();
    List<Group> groups = new ArrayList<>();
    Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ParamGroup spec : specs) {
      if (spec == null) throw new IllegalArgumentException(name + "(): a parameter group is null");
      Set<Tensor> inGroup = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Tensor p : spec.params()) {
        int i = all.size();
        if (p == null) throw new IllegalArgumentException(name + "(): optimizer can only optimize Tensors, but one of the params is null");
        if (p.isClosed()) throw new IllegalArgumentException(name + "(): parameter " + i + " is closed");
        if (!inGroup.add(p)) {  // PyTorch warns "in future, this will cause an error"; stepped twice from one state, the last write would win
          throw new IllegalArgumentException(name + "(): optimizer contains a parameter group with duplicate parameters "
              + "(parameter " + i + " is listed again); list each once, as Module.parameters() does");
        }
        if (!seen.add(p)) throw new IllegalArgumentException(name + "(): some parameters appear in more than one parameter group");
        // a frozen leaf (requiresGrad false) is taken, as PyTorch's: it has no gradient, so step() skips it until unfrozen
        if (!p.isLeaf() && !p.retainsGrad()) throw new IllegalArgumentException(name + "(): can't optimize a non-leaf Tensor");
        all.add(p);
      }
      Map<String, Object> options = new LinkedHashMap<>(defaults);
      options.putAll(spec.options());
      Object lr = options.get("lr");  // a made group's (a loaded one may hold a scheduler's negative rate)
      if (!(lr instanceof Number n) || lr instanceof Boolean || !(n.doubleValue() >= 0)) {
        throw new IllegalArgumentException(name + "(): Invalid learning rate: " + lr);
      }
      groups.add(new Group(all.size() - spec.params().size(), all.size(), options));
    }
    return new ParamGroups(List.copyOf(all), List.copyOf(groups));
  }

  Group of(int param) {
    return groups.get(groupOf[param]);
  }

  /** The index of parameter param's group. */
  int indexOf(int param) {
    return groupOf[param];
  }

  Group get(String op, int group) {
    if (group < 0 || group >= groups.size()) {
      throw new IndexOutOfBoundsException(op + "(): parameter group " + group + " out of range (the optimizer has " + groups.size() + ")");
    }
    return groups.get(group);
  }

  /**
   * Refuses a group whose initial_lr or OneCycleLR entries are not numbers, or (once a OneCycleLR set them on this
   * optimizer) differ from that scheduler's: it would continue with its own arguments where PyTorch's reads the group's.
   */
  void checkScheduleKeys(String name, Map<String, Object> group, int k) {
    Group own = groups.get(k);
    List<String> keys = new ArrayList<>(SCHEDULE_KEYS);
    keys.add(0, "initial_lr");
    for (String key : keys) {
      if (!group.containsKey(key)) continue;
      Object v = group.get(key);
      if (!(v instanceof Number n) || v instanceof Boolean || Double.isNaN(n.doubleValue())) {
        throw new IllegalArgumentException(name + "(): the group's '" + key + "' is " + SchedulerState.repr(v) + "; expected a number");
      }
      Object mine = key.equals("initial_lr") ? (Double) own.initialLr : own.scheduleKeys.get(key);
      if (scheduleSet && mine instanceof Number o && o.doubleValue() != n.doubleValue()) {
        throw new IllegalArgumentException(name + "(): the group's '" + key + "' is " + v + ", the OneCycleLR made on this optimizer has " + o
            + " (PyTorch's would go on from the group's); make the OneCycleLR with the arguments the state was saved with");
      }
    }
  }

  /** PyTorch's check of a non-negative option: "Invalid <label> value: <v>" (NaN refused too). */
  static void requireNonNegative(String name, Map<String, Object> group, String key, String label) {
    if (!(((Number) group.get(key)).doubleValue() >= 0)) throw new IllegalArgumentException(name + "(): Invalid " + label + " value: " + group.get(key));
  }

  /** A checked option as the group holds it: numbers as Double, betas as an Object[] of Doubles, flags as given. */
  static Object normalized(Object own, Object v) {
    if (own instanceof Number && v instanceof Number n) return n.doubleValue();
    if (own instanceof Object[] && (v instanceof Object[] || v instanceof List<?>)) {
      List<?> l = v instanceof Object[] a ? Arrays.asList(a) : (List<?>) v;
      Object[] out = new Object[l.size()];
      for (int i = 0; i < out.length; i++) out[i] = ((Number) l.get(i)).doubleValue();
      return out;
    }
    return v;
  }
}
