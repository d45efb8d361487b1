package org.jtensor.fuzz;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jtensor.memory.TensorOutOfMemoryException;

/**
 * What the fuzzer saw: exceptions by type, checked results, counts per family, and the failures,
 * each with what it takes to replay it (seed, op index, the op as called).
 */
final class Outcomes {
  /** DESIGN §7: the only exception types any public op may throw (exact classes, not subclasses). */
  static final Set<Class<?>> DOCUMENTED = Set.of(
      IllegalArgumentException.class,
      IndexOutOfBoundsException.class,
      IllegalStateException.class,
      UnsupportedOperationException.class,
      ArithmeticException.class,
      TensorOutOfMemoryException.class);

  private static final int MAX_FAILURES = 25;

  /** One family's calls: how many, how many valid by construction, succeeded, checked, refused. */
  static final class Tally {
    long calls, valid, succeeded, checked, refused;
  }

  long ops;
  long checked;
  int seeds;
  final Map<String, Long> thrown = new TreeMap<>();
  final Map<String, Tally> families = new TreeMap<>();
  private final List<String> failures = new ArrayList<>();
  private final Set<String> failureKinds = new LinkedHashSet<>();
  private long failureCount;
  private String last;

  static boolean documented(Throwable e) {
    return DOCUMENTED.contains(e.getClass());
  }

  Tally tally(String family) {
    return families.computeIfAbsent(family, k -> new Tally());
  }

  void threw(Throwable e) {
    thrown.merge(e.getClass().getSimpleName(), 1L, Long::sum);
  }

  /** Records a failure; the same kind (what went wrong in which op, numbers and dtypes aside) is listed once. */
  void fail(long seed, long opIndex, String op, String what, Throwable cause) {
    failureCount++;
    last = what + " in " + op;
    String kind = what.replaceAll("\\[[^\\]]*\\]|-?[0-9][0-9.]*(E-?[0-9]+)?|-?Infinity|NaN|\\b(bool|u?int\\d+|b?float\\d+)\\b", "#")
        + " in " + op.replaceAll("(?s)\\(.*", "");
    if (!failureKinds.add(kind) || failures.size() >= MAX_FAILURES) return;
    StringBuilder sb = new StringBuilder()
        .append("seed ").append(seed).append(" op #").append(opIndex).append(": ").append(what)
        .append("\n    op: ").append(op);
    if (cause != null) {
      StringWriter trace = new StringWriter();
      cause.printStackTrace(new PrintWriter(trace));
      sb.append("\n    ").append(trace.toString().lines().limit(14).reduce((a, b) -> a + "\n    " + b).orElse(""));
    }
    failures.add(sb.toString());
  }

  long failureCount() {
    return failureCount;
  }

  /** The latest failure (what, then the op as called), or null: for the fuzzer's own tests. */
  String lastFailure() {
    return last;
  }

  /** The failures, one of each kind, and the latest (a replay's, which ends at the op replayed). */
  String failureReport() {
    return failureCount + " failure(s), " + failures.size() + " distinct shown"
        + " (replay: -Djtensor.fuzz.seeds=SEED, -Djtensor.fuzz.ops=OPINDEX+1; the comma makes SEED one seed, not seeds 1..SEED)\n" + String.join("\n", failures)
        + (last == null ? "" : "\nthe latest: " + last);
  }

  String summary(long millis) {
    long exceptions = thrown.values().stream().mapToLong(Long::longValue).sum();
    return String.format("jtensor fuzz: %d ops over %d seeds in %.1f s; %d checked against the reference;"
        + " %d documented exceptions %s; %d failures", ops, seeds, millis / 1000.0, checked, exceptions, thrown,
        failureCount);
  }
}
