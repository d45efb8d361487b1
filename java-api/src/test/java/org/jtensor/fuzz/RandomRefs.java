package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.function.Function;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * References for the random draws: the shape and dtype, each value in its range, and determinism:
 * the draw replayed from the generator's state before the call gives the same bits and leaves the
 * generator where the call left it.
 */
final class RandomRefs {
  private RandomRefs() {}

  /** What each drawn element may be: why element i, value v, of a result in dtype out is wrong, or null. */
  interface Range {
    String violation(Vals in, DType out, int i, double v);
  }

  /**
   * A draw from gen: redo runs the same draw from another generator. The state is read now, before
   * the call (the check is made when the call is). x: the input whose values the range needs (or null).
   */
  static Fuzz.Check draw(String what, Generator gen, Function<Generator, Object> redo, Pool.Entry x, long[] shape, DType dtype, Range range) {
    long[] state = gen.getState();
    return (result, in) -> {
      Vals r = Vals.of(result), v = x == null ? null : in.of(x);
      Vals.expectShape(shape == null ? v.shape : shape, r, what);
      if (dtype != null && r.dtype != dtype) throw new AssertionError(what + " gave " + r.dtype + ", expected " + dtype);
      for (int i = 0; i < r.numel(); i++) {
        String bad = range.violation(v, r.dtype, i, r.d[i]);
        if (bad != null) throw new AssertionError(what + ": element " + i + " is " + r.d[i] + ", " + bad);
      }
      Generator again = new Generator(0).setState(state);
      Object redone = redo.apply(again);
      try {
        Vals w = Vals.of(redone);
        for (int i = 0; i < r.numel(); i++) {
          if (Double.compare(r.d[i], w.d[i]) != 0) throw Vals.mismatch(what + " replayed from the same state", i, w.d[i], r.d[i]);
        }
      } finally {
        if (redone != result && (x == null || redone != x.t())) ((Tensor) redone).close();
      }
      if (!Arrays.equals(again.getState(), gen.getState())) {
        throw new AssertionError(what + ": the replay left the generator at " + Arrays.toString(again.getState()) + ", the call at "
            + Arrays.toString(gen.getState()));
      }
    };
  }

  /** Values in [lo, hi) (hi inclusive: a value rounded to a narrow dtype can reach it). */
  static Range within(double lo, double hi, boolean hiIncluded) {
    return (in, t, i, v) -> v >= lo && (v < hi || (hiIncluded && v == hi)) ? null
        : "outside [" + lo + ", " + hi + (hiIncluded ? "]" : ")");
  }

  /** An integer in [lo, hi) as the result's dtype stores it (a bool result: whether it is nonzero). */
  static Range integers(long lo, long hi) {
    return (in, t, i, v) -> {
      for (long k = lo; k < hi; k++) if (Double.compare(v, Vals.round(k, t)) == 0) return null;
      return "not an integer of [" + lo + ", " + hi + ") as " + t + " stores it";
    };
  }

  /** 0 or 1; where the probability is 0 or 1 (p < 0: from the input's element), that value. */
  static Range bernoulli(double p) {
    return (in, t, i, v) -> {
      double q = p < 0 ? in.d[i] : p;
      if (v != 0 && v != 1) return "not 0 or 1";
      return (q == 0 && v != 0) || (q == 1 && v != 1) ? "with probability " + q : null;
    };
  }

  /** normal_(0, std): finite where std makes that certain, all zero for std 0. */
  static Range normal(double std) {
    return (in, t, i, v) -> std == 0 && v != 0 ? "with std 0"
        : std <= 100 && !Double.isFinite(v) ? "not finite with std " + std : null;
  }

  /** dropout(p): x * 0 (NaN for an infinite x, as PyTorch's x * mask) or x / (1 - p), in the result's dtype; x for p = 0. */
  static Range dropout(double p) {
    return (in, t, i, v) -> {
      double x = Vals.round(in.d[i], t), dropped = x * 0.0, kept = p == 1 ? dropped : Vals.round(x / (1 - p), t);
      boolean ok = Vals.close(v, dropped, 0) || Vals.close(v, kept, Vals.rtol(t) * Math.abs(kept) + Vals.atol(t));
      return ok ? null : "neither " + dropped + " nor " + kept;
    };
  }
}
