package org.jtensor.race;

import java.util.Map;
import java.util.function.Function;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** Runs each of a race test's checks on t while another thread changes it: wrong values counted, IllegalStateException allowed. */
final class OpRuns {
  int wrong;
  final StringBuilder report = new StringBuilder();

  /** Each op runs runs / ops.size() times, each run under its own scope; report gets a line per op. */
  static OpRuns run(Map<String, Function<Tensor, Boolean>> ops, Tensor t, int runs) {
    OpRuns r = new OpRuns();
    int each = runs / ops.size();
    for (Map.Entry<String, Function<Tensor, Boolean>> op : ops.entrySet()) {
      int bad = 0, refused = 0;
      for (int i = 0; i < each; i++) {
        try (TensorScope s = TensorScope.open()) {
          if (!op.getValue().apply(t)) bad++;
        } catch (IllegalStateException allowed) {
          refused++;
        }
      }
      r.wrong += bad;
      r.report.append(String.format("%n  %s: %d runs, %d wrong, %d refused", op.getKey(), each, bad, refused));
    }
    return r;
  }
}
