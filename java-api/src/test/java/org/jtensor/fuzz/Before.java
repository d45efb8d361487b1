package org.jtensor.fuzz;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Tensor;

/**
 * The values of a call's tensor arguments, read before the call: a reference computes from these,
 * so an in-place or out= op (which overwrites an input) is compared with the out-of-place meaning
 * of the inputs as they were, and an out-of-place op that wrongly writes an input is caught too.
 */
final class Before {
  private final Map<Tensor, Vals> vals = new IdentityHashMap<>();

  /** Captures every open tensor among args (Pool.Entry, or a list or array of them). */
  static Before capture(Object[] args) {
    Before b = new Before();
    for (Object a : args) b.add(a);
    return b;
  }

  private void add(Object a) {
    if (a instanceof Pool.Entry e && !e.t().isClosed()) vals.computeIfAbsent(e.t(), Vals::new);
    else if (a instanceof List<?> list) list.forEach(this::add);
    else if (a instanceof Object[] arr) for (Object o : arr) add(o);
  }

  /** Whether another of the call's tensors shares target's storage: what an in-place op then reads depends on its order. */
  boolean aliased(Tensor target) {
    for (Tensor t : vals.keySet()) if (t != target && !t.isClosed() && t.isAliasOf(target)) return true;
    return false;
  }

  /** The captured values, one line per tensor (the first elements), for a failure's report. */
  String describe() {
    StringBuilder sb = new StringBuilder();
    vals.forEach((t, v) -> {
      double[] d = v.d;
      String s = java.util.Arrays.toString(java.util.Arrays.copyOf(d, Math.min(d.length, 24)));
      sb.append("\n    input ").append(v.dtype).append(java.util.Arrays.toString(v.shape)).append(": ").append(s)
          .append(d.length > 24 ? " ..." : "");
    });
    return sb.toString();
  }

  /** e's values before the call; a reference that reads a tensor the call was not given is a fuzzer bug. */
  Vals of(Pool.Entry e) {
    Vals v = e == null ? null : vals.get(e.t());
    if (v == null) throw new IllegalStateException("the reference reads " + e + ", which was not captured");
    return v;
  }
}
