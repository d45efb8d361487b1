package org.jtensor.optim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.core.PyRepr;

/**
 * Reading a scheduler's state dict in PyTorch's layout (lr_scheduler's state_dict() is the object's
 * __dict__ less the optimizer: its arguments, then its progress). jtensor's schedulers keep the
 * arguments they were made with, so a load checks that the state's arguments are the same ones
 * rather than taking them over as PyTorch's __dict__.update does: a state of another schedule is
 * refused by name, never continued silently.
 */
final class SchedulerState {
  private SchedulerState() {}

  /** An ordered map of (key, value) pairs: a state's entries in PyTorch's order. */
  static Map<String, Object> entries(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    return m;
  }

  /** The state as a map, or a refusal naming op. */
  static Map<?, ?> requireMap(String op, Object state) {
    if (!(state instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(op + "(): expected a scheduler's state dict (a map), got " + (state == null ? "null" : state.getClass().getSimpleName()));
    }
    return m;
  }

  /** Refuses a state (where says which: "the state", "the state of scheduler 1") missing one of own's entries or holding another value. */
  static void checkSame(String op, String where, Map<?, ?> state, Map<String, Object> own, String kind) {
    for (Map.Entry<String, Object> e : own.entrySet()) {
      if (!state.containsKey(e.getKey())) {
        throw new IllegalArgumentException(op + "(): " + where + " has no '" + e.getKey() + "': it is not a " + kind + "'s state");
      }
      Object saved = state.get(e.getKey());
      if (!same(saved, e.getValue())) {
        throw new IllegalArgumentException(op + "(): " + where + " has '" + e.getKey() + "' " + repr(saved) + ", this " + kind + " has "
            + repr(e.getValue()) + "; make the scheduler with the arguments (and the optimizer's rate) the state was saved with");
      }
    }
  }

  /** A whole number entry of at least min (last_epoch, PyTorch's counters). */
  static int wholeNumber(String op, String where, Map<?, ?> state, String key, int min) {
    Object v = state.get(key);
    double d = v instanceof Number n && !(v instanceof Boolean) ? n.doubleValue() : Double.NaN;
    if (!(d >= min && d <= Integer.MAX_VALUE && d == Math.rint(d))) {
      throw new IllegalArgumentException(op + "(): " + where + " has '" + key + "' " + (state.containsKey(key) ? repr(v) : "missing")
          + "; expected a whole number of at least " + min);
    }
    return (int) d;
  }

  /** A number entry (best may be ±inf, as PyTorch saves it before the first metric). */
  static double number(String op, String where, Map<?, ?> state, String key) {
    if (!(state.get(key) instanceof Number n) || state.get(key) instanceof Boolean) {
      throw new IllegalArgumentException(op + "(): " + where + " has '" + key + "' " + (state.containsKey(key) ? repr(state.get(key)) : "missing")
          + "; expected a number");
    }
    return n.doubleValue();
  }

  /** Equal as PyTorch's values compare: numbers by value (a saved 5 and 5.0 alike), lists and maps entry by entry. */
  static boolean same(Object saved, Object own) {
    if (own == null || saved == null) return own == saved;
    if (own instanceof Number a) return saved instanceof Number b && !(saved instanceof Boolean) && a.doubleValue() == b.doubleValue();
    if (own instanceof List<?> a) {
      if (!(saved instanceof List<?> b) || a.size() != b.size()) return false;
      for (int i = 0; i < a.size(); i++) if (!same(b.get(i), a.get(i))) return false;
      return true;
    }
    if (own instanceof Map<?, ?> a) {
      if (!(saved instanceof Map<?, ?> b)) return false;
      for (Map.Entry<?, ?> e : a.entrySet()) if (!b.containsKey(e.getKey()) || !same(b.get(e.getKey()), e.getValue())) return false;
      return true;
    }
    return own.equals(saved);
  }

  /** A value as Python prints it, for messages. */
  static String repr(Object v) {
    if (v == null) return "None";
    if (v instanceof Boolean b) return b ? "True" : "False";
    if (v instanceof String s) return "'" + s + "'";
    if (v instanceof Double d) return PyRepr.pyFloat(d);
    if (v instanceof List<?> l) {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < l.size(); i++) b.append(i == 0 ? "" : ", ").append(repr(l.get(i)));
      return b.append(']').toString();
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<?, ?> e : m.entrySet()) b.append(b.length() == 1 ? "" : ", ").append(repr(e.getKey())).append(": ").append(repr(e.getValue()));
      return b.append('}').toString();
    }
    return String.valueOf(v);
  }
}
