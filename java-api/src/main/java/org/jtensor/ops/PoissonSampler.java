package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * Poisson counts for given rates (torch.poisson), as numpy's generator draws them: for a rate below
 * 10 the product of uniforms until it falls under e^−rate, from 10 on Hörmann's transformed rejection
 * with squeeze (PTRS, 1993). The uniforms come from g in blocks of float64 draws, so a seed fixes the
 * counts; PyTorch's own (a different generator) cannot be matched, only the distribution.
 */
public final class PoissonSampler {
  private final Generator g;
  private double[] block = new double[0];
  private int next;

  private PoissonSampler(Generator g) {
    this.g = g;
  }

  /** One count per rate (each finite and ≥ 0: the caller checks; +inf gives +inf). */
  public static double[] sample(double[] rates, Generator g) {
    PoissonSampler s = new PoissonSampler(g);
    double[] out = new double[rates.length];
    for (int i = 0; i < rates.length; i++) out[i] = s.count(rates[i], rates.length - i);
    return out;
  }

  private double count(double rate, int left) {
    if (rate == 0) return 0;
    if (rate == Double.POSITIVE_INFINITY) return rate;
    return rate < 10 ? multiplied(rate, left) : ptrs(rate, left);
  }

  private double multiplied(double rate, int left) {
    double limit = Math.exp(-rate), product = 1;
    for (long k = 0; ; k++) {
      product *= uniform(left);
      if (product <= limit) return k;
    }
  }

  private double ptrs(double rate, int left) {
    double slam = Math.sqrt(rate), logRate = Math.log(rate);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invAlpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    while (true) {
      double u = uniform(left) - 0.5, v = uniform(left), us = 0.5 - Math.abs(u);
      double k = Math.floor((2 * a / us + b) * u + rate + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -rate + k * logRate - logGamma(k + 1)) return k;
    }
  }

  /** The next uniform in [0, 1); a new block (sized by the rates still to draw, up to 2^20) when this one is spent. */
  private double uniform(int left) {
    if (next == block.length) {
      try (Tensor t = Tensor.empty(new long[] {Math.min(1 << 20, Math.max(1024, 4L * left))}, DType.FLOAT64)) {  // at most 8 MB a block
        block = t.uniform_(0, 1, g).toDoubleArray();
      }
      next = 0;
    }
    return block[next++];
  }

  private static final double[] STIRLING = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
      8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01, -1.39243221690590e+00};

  /** log Γ(x) for x ≥ 1 (numpy's loggam: Stirling's series from 7 on, shifted down below it). */
  static double logGamma(double x) {
    if (x == 1 || x == 2) return 0;
    int n = x <= 7 ? (int) (7 - x) : 0;
    double x0 = x + n, x2 = 1 / (x0 * x0), series = STIRLING[9];
    for (int k = 8; k >= 0; k--) series = series * x2 + STIRLING[k];
    double gl = series / x0 + 0.5 * Math.log(2 * Math.PI) + (x0 - 0.5) * Math.log(x0) - x0;
    for (int k = 1; k <= n; k++) {
      gl -= Math.log(x0 - 1);
      x0 -= 1;
    }
    return gl;
  }
}
