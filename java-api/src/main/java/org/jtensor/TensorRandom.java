package org.jtensor;

/**
 * Tensor's random ops, inherited by {@link Tensor}. Values come from a seeded {@link Generator}
 * (Philox, counter-based), so they depend on the seed and the draw order only, never on threads.
 */
abstract class TensorRandom extends TensorIndexing {
  /** Fills self with values uniform in [from, to). */
  public Tensor uniform_(double from, double to, Generator g) {
    TensorImpl t = impl("uniform_");
    if (!(from <= to)) throw new IllegalArgumentException("uniform_(): expects from <= to, but got from=" + from + " to=" + to);
    requireFloat("uniform_", t);
    double[] u = g.uniform53(t.numel());
    for (int i = 0; i < u.length; i++) u[i] = from + (to - from) * u[i];
    fillFrom("uniform_", t, u);
    return self();
  }

  /** Fills self with values drawn from N(mean, std^2). */
  public Tensor normal_(double mean, double std, Generator g) {
    TensorImpl t = impl("normal_");
    if (std < 0) throw new IllegalArgumentException("normal_(): expects std >= 0.0, but found std " + std);
    requireFloat("normal_", t);
    double[] n = g.normal(t.numel());
    for (int i = 0; i < n.length; i++) n[i] = mean + std * n[i];
    fillFrom("normal_", t, n);
    return self();
  }

  /** A tensor of 0s and 1s, each 1 with the probability in self (which must lie in [0, 1]). */
  public Tensor bernoulli(Generator g) {
    TensorImpl t = impl("bernoulli");
    requireFloat("bernoulli", t);
    double[] p = self().toDoubleArray();
    double[] u = g.uniform53(p.length);
    for (int i = 0; i < p.length; i++) {
      if (!(p[i] >= 0 && p[i] <= 1)) throw new IllegalArgumentException("bernoulli(): Expected p_in >= 0 && p_in <= 1 to be true, but got " + p[i]);
      u[i] = u[i] < p[i] ? 1 : 0;
    }
    return filledLike(t, t.dtype(), u);
  }

  /** A tensor shaped as self of 0s and 1s, each 1 with probability p. */
  public Tensor bernoulli(double p, Generator g) {
    TensorImpl t = impl("bernoulli");
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("bernoulli(): p must be in [0, 1], got " + p);
    double[] u = g.uniform53(t.numel());
    for (int i = 0; i < u.length; i++) u[i] = u[i] < p ? 1 : 0;
    return filledLike(t, t.dtype().isFloatingPoint() ? t.dtype() : DType.DEFAULT_FLOAT, u);
  }

  /** A new tensor laid out like t, of dtype, holding values (row-major). */
  private static Tensor filledLike(TensorImpl t, DType dtype, double[] values) {
    TensorImpl out = DataOps.emptyLike(t, dtype, t.device());
    try {
      fillFrom("bernoulli", out, values);
      return Tensor.wrap(out);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** Zeroes each element with probability p and scales the rest by 1/(1-p); identity when not training. */
  public Tensor dropout(double p, boolean training, Generator g) {
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("dropout(): dropout probability has to be between 0 and 1, but got " + p);
    TensorImpl t = impl("dropout");
    if (!training || p == 0) return Tensor.wrap(DataOps.cloneAs(t, t.dtype(), t.device(), false));
    if (p == 1) return Tensor.zerosLike(self());
    try (Tensor keep = bernoulli(1 - p, g); Tensor kept = self().mul(keep)) {
      return kept.div(1 - p);
    }
  }

  /** Copies values (row-major) into t, converting to its dtype and layout. */
  private static void fillFrom(String op, TensorImpl t, double[] values) {
    try (Tensor flat = Tensor.fromArray(values); Tensor src = flat.view(t.sizes())) {
      DataOps.copyInto(op, t, src.impl(op));
    }
  }

  private static void requireFloat(String op, TensorImpl t) {
    if (!t.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op + "(): expects a floating point tensor, got " + t.dtype());
    }
  }
}
