package org.jtensor.dispatch;

import java.util.concurrent.ConcurrentHashMap;
import org.jtensor.DType;
import org.jtensor.bindings.JtNative;

/** The native elementwise table, asked once per op name: its id, and which dtypes have a kernel. */
final class CpuKernels {
  private static final ConcurrentHashMap<String, int[]> INFO = new ConcurrentHashMap<>();

  /** The op asked last: a loop of one op skips the map. Immutable, so racy sharing is safe. */
  private record Last(String op, int[] info) {}

  private static Last last = new Last(null, null);  // op names are never null: the first call misses

  private CpuKernels() {}

  /** [id, info per dtype...] for op; id -1 when the native table has no such op. */
  private static int[] info(String op) {
    Last l = last;
    if (l.op == op) return l.info;  // identity: op names are literals
    int[] info = lookup(op);
    last = new Last(op, info);
    return info;
  }

  private static int[] lookup(String op) {
    return INFO.computeIfAbsent(op, name -> {
      int id = JtNative.jt_ew_op_id(name);
      int[] r = new int[1 + DType.values().length];
      r[0] = id;
      for (DType t : DType.values()) r[1 + t.code()] = id < 0 ? 0 : JtNative.jt_ew_op_info(id, t.code());
      return r;
    });
  }

  static int id(String op) {
    return info(op)[0];
  }

  static boolean supports(String op, DType dtype) {
    return info(op)[1 + dtype.code()] != 0;
  }
}
