package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Compares jtensor's results with PyTorch goldens element by element, collecting every mismatch so
 * one failure lists them all. float64 must agree to a few ulps; float32 and the 16-bit types within a
 * few of their ulps (PyTorch's vectorized math is Sleef's, jtensor's its own). Cases whose name holds
 * "_special_" (NaN, infinities, 1e30 beside 1) get no absolute slack; the others may be off by the
 * relative tolerance times their largest value, where a difference cancels.
 */
final class GoldenComparison {
  private final List<String> mismatches = new ArrayList<>();

  /** Units in the last place a result of d may be off by, relative to the larger magnitude. */
  static double relativeTolerance(DType d, boolean gradient) {
    switch (d) {
      case FLOAT64: return gradient ? 1e-12 : 4e-15;
      case FLOAT32: return gradient ? 2e-5 : 1.2e-6;
      case FLOAT16: return 2e-3;
      case BFLOAT16: return 1.6e-2;
      default: return 0;
    }
  }

  /** want against got: dtype and shape must be equal (those fail at once), the elements close; signedZero: -0.0 must match too. */
  void compare(Tensor want, Tensor got, boolean gradient, boolean signedZero, String what) {
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertEquals(Arrays.toString(want.shape()), Arrays.toString(got.shape()), what + ": shape");
    compare(want.dtype(), want.toDoubleArray(), got.toDoubleArray(), gradient, signedZero, what);
  }

  void compare(DType dtype, double[] w, double[] g, boolean gradient, boolean signedZero, String what) {
    assertEquals(w.length, g.length, what + ": numel");
    double rel = relativeTolerance(dtype, gradient);
    double scale = 0;
    for (double v : w) if (Double.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    double abs = what.contains("_special_") ? Double.MIN_VALUE : rel * scale;
    for (int i = 0; i < w.length; i++) {
      // Through Close's rule: an infinity matches only itself (with the tolerance relative to the
      // larger of the two, an infinite result passed against any finite golden).
      boolean same = Close.within(g[i], w[i], Math.max(rel * Math.max(Math.abs(w[i]), Math.abs(g[i])), abs));
      if (w[i] == 0 && g[i] == 0 && signedZero && Math.copySign(1, w[i]) != Math.copySign(1, g[i])) same = false;
      if (!same) mismatches.add(what + ": element " + i + " is " + g[i] + ", PyTorch's " + w[i]);
    }
  }

  /**
   * One fixture case: op on its ".x" (and ".y", both requiring grad where ".up" is there), the result
   * against ".out", then the gradients of (out · up).sum() against ".grad_x" and ".grad_y" where the
   * fixture has them. signedZero: the values' -0.0 must match too (gradients' never need to).
   */
  void checkCase(PtFixture fixtures, String name, Function<List<Tensor>, Tensor> op, boolean signedZero) {
    boolean grad = fixtures.has(name + ".up");
    Tensor x = fixtures.tensor(name + ".x").clone().requiresGrad_(grad);
    Tensor y = fixtures.has(name + ".y") ? fixtures.tensor(name + ".y").clone() : null;
    if (y != null) y.requiresGrad_(grad && y.dtype().isFloatingPoint());  // an integer operand (ldexp's exponent) has no gradient
    Tensor out = op.apply(y == null ? List.of(x) : List.of(x, y));
    compare(fixtures.tensor(name + ".out"), out, false, signedZero, name);
    if (!grad) return;
    out.mul(fixtures.tensor(name + ".up")).sum().backward();
    if (fixtures.has(name + ".grad_x")) compare(fixtures.tensor(name + ".grad_x"), x.grad(), true, false, name + ": x's gradient");
    if (fixtures.has(name + ".grad_y")) compare(fixtures.tensor(name + ".grad_y"), y.grad(), true, false, name + ": y's gradient");
  }

  /** Fails listing the first 40 mismatches, if any. */
  void assertNone() {
    if (!mismatches.isEmpty()) {
      fail(mismatches.size() + " elements differ from PyTorch's:\n" + String.join("\n", mismatches.subList(0, Math.min(40, mismatches.size()))));
    }
  }
}
