package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Tensor;

/**
 * A torch.optim state dict as an optimizer reads it before changing anything (Note [A load is whole
 * or nothing] in AbstractOptimizer): its parameter groups, keys as strings, each with its learning
 * rate checked and as many parameters as the optimizer's group, and the per-parameter states, each
 * checked against the parameter it names. Tensors are the dict's own; the optimizer copies them.
 */
record SavedOptimizerState(List<Map<String, Object>> groups, List<?> savedIndices, Map<?, ?> savedStates) {

  /** The dict's layout and groups, checked against the optimizer's group sizes; name is the caller's, for messages. */
  static SavedOptimizerState read(String name, Map<String, Object> dict, int[] groupSizes) {
    if (dict == null || !(dict.get("state") instanceof Map<?, ?> states) || !(dict.get("param_groups") instanceof List<?> saved)) {
      throw new IllegalArgumentException(name + "(): expected a map with \"state\" (a map) and \"param_groups\" (a list)");
    }
    if (saved.size() != groupSizes.length) {  // PyTorch's words, then the counts
      throw new IllegalArgumentException(name + "(): loaded state dict has a different number of parameter groups (" + saved.size()
          + " against " + groupSizes.length + ")");
    }
    List<Map<String, Object>> groups = new ArrayList<>();
    List<Object> indices = new ArrayList<>();  // every group's, in order: PyTorch pairs them with the parameters so
    for (int k = 0; k < saved.size(); k++) {
      if (!(saved.get(k) instanceof Map<?, ?> g)) throw new IllegalArgumentException(name + "(): parameter group " + k + " is not a map");
      Map<String, Object> group = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : g.entrySet()) group.put(String.valueOf(e.getKey()), e.getValue());
      if (!(group.get("params") instanceof List<?> ps) || ps.size() != groupSizes[k]) {
        throw new IllegalArgumentException(name + "(): loaded state dict contains a parameter group that doesn't match the size of "
            + "optimizer's group (group " + k + ": " + (group.get("params") instanceof List<?> l ? l.size() : "none") + " against "
            + groupSizes[k] + ")");
      }
      // any number but NaN: a scheduler's rate may be negative (StepLR with a negative gamma), and PyTorch saves and loads it as set
      if (!(group.get("lr") instanceof Number lrValue) || group.get("lr") instanceof Boolean || Double.isNaN(lrValue.doubleValue())) {
        throw new IllegalArgumentException(name + "(): the group's lr is " + SchedulerState.repr(group.get("lr")) + "; expected a number");
      }
      groups.add(group);
      indices.addAll(ps);
    }
    return new SavedOptimizerState(groups, indices, states);
  }

  /**
   * Each saved state by the position of its parameter: "step" as a Long (a whole number, at least firstStep),
   * every other name in names (parameter i's: its group's) a tensor of its parameter's shape. A state none says is no state
   * is left out, as a parameter that never stepped.
   */
  Map<Integer, Map<String, Object>> states(String name, List<Tensor> params, java.util.function.IntFunction<List<String>> names, long firstStep,
      java.util.function.Predicate<Map<?, ?>> none) {
    Map<Integer, Map<String, Object>> loaded = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : savedStates.entrySet()) {
      int i = indexOf(name, e.getKey());
      if (!(e.getValue() instanceof Map<?, ?> st)) throw new IllegalArgumentException(name + "(): the state of parameter " + i + " is not a map");
      if (none.test(st)) continue;
      Map<String, Object> values = new LinkedHashMap<>();
      for (String key : names.apply(i)) {
        Object v = st.get(key);
        if (key.equals("step")) {  // a scalar tensor, or a plain number as PyTorch before 1.12 saved it
          double step = v instanceof Number n ? n.doubleValue() : v instanceof Tensor t && t.numel() == 1 ? t.item() : Double.NaN;
          if (!(step >= firstStep && step == Math.rint(step) && step <= Long.MAX_VALUE)) {
            throw new IllegalArgumentException(name + "(): the state of parameter " + i + ": 'step' must be a whole number of steps, at "
                + "least " + firstStep + ", got " + (v instanceof Tensor t ? "a tensor of shape " + Arrays.toString(t.shape()) + (t.numel() == 1
                ? " holding " + t.item() : "") : v));
          }
          values.put(key, (long) step);
          continue;
        }
        if (!(v instanceof Tensor t)) throw new IllegalArgumentException(name + "(): the state of parameter " + i + " has no tensor '" + key + "'");
        if (!Arrays.equals(t.shape(), params.get(i).shape())) {
          throw new IllegalArgumentException(name + "(): the state of parameter " + i + ": '" + key + "' of shape "
              + Arrays.toString(t.shape()) + " does not fit the parameter of shape " + Arrays.toString(params.get(i).shape()));
        }
        values.put(key, t);
      }
      loaded.put(i, values);
    }
    return loaded;
  }

  /** The position in params of a state key (the parameter's index in the saved group's "params"; whole numbers only). */
  private int indexOf(String name, Object key) {
    boolean whole = key instanceof Long || key instanceof Integer;
    for (int i = 0; whole && i < savedIndices.size(); i++) {
      Object saved = savedIndices.get(i);
      if ((saved instanceof Long || saved instanceof Integer) && ((Number) saved).longValue() == ((Number) key).longValue()) return i;
    }
    throw new IllegalArgumentException(name + "(): the state names parameter " + key + ", which no group lists");
  }
}
