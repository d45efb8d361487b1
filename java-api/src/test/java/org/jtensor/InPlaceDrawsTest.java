package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * exponential_, geometric_, cauchy_, logNormal_ and random_: their values cannot be PyTorch's (another generator,
 * by design), so 100,000 draws at a fixed seed are held to each distribution's mean, variance and
 * quantiles within 5 standard errors (deterministic: the seed fixes them); the same seed repeats a draw;
 * refusals are PyTorch 2.13's words.
 */
class InPlaceDrawsTest extends ScopedTest {
  private static final int N = 100_000;

  private static double[] draws(java.util.function.UnaryOperator<Tensor> fill, DType dtype) {
    Tensor t = Tensor.empty(new long[] {N}, dtype);
    assertSame(t, fill.apply(t));
    assertEquals(dtype, t.dtype());
    return t.toDoubleArray();
  }

  private static double mean(double[] x) {
    return Arrays.stream(x).average().orElseThrow();
  }

  private static double variance(double[] x) {
    double m = mean(x);
    return Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1);
  }

  /** The share of x below q, which must be p within 5 standard errors of a proportion. */
  private static void quantile(double[] x, double q, double p, String what) {
    double share = Arrays.stream(x).filter(v -> v < q).count() / (double) x.length;
    assertEquals(p, share, 5 * Math.sqrt(p * (1 - p) / x.length), what + ": share below " + q);
  }

  /** The sample mean within 5 standard errors of mu, the variance within 5 of its own (fourth moment m4). */
  private static void moments(double[] x, double mu, double var, double m4, String what) {
    assertEquals(mu, mean(x), 5 * Math.sqrt(var / x.length), what + ": mean");
    assertEquals(var, variance(x), 5 * Math.sqrt((m4 - var * var) / x.length), what + ": variance");
  }

  @Test
  void exponentialHasItsMeanVarianceAndMedian() {
    double lambda = 2;
    double[] x = draws(t -> t.exponential_(lambda, new Generator(62)), DType.FLOAT64);
    assertTrue(Arrays.stream(x).allMatch(v -> v >= 0), "non-negative");
    moments(x, 1 / lambda, 1 / (lambda * lambda), 9 / Math.pow(lambda, 4), "exponential");
    quantile(x, Math.log(2) / lambda, 0.5, "exponential");
    quantile(x, Math.log(10) / lambda, 0.9, "exponential");
    quantile(draws(t -> t.exponential_(0.5, new Generator(63)), DType.FLOAT32), Math.log(2) / 0.5, 0.5, "exponential float32");
  }

  @Test
  void geometricCountsTrialsToTheFirstSuccess() {
    double p = 0.3, q = 1 - p;
    double[] x = draws(t -> t.geometric_(p, new Generator(62)), DType.INT64);
    assertTrue(Arrays.stream(x).allMatch(v -> v >= 1), "at least one trial");
    double var = q / (p * p);
    moments(x, 1 / p, var, var * var * (9 + p * p / q), "geometric");  // excess kurtosis 6 + p²/q
    quantile(x, 1.5, p, "geometric: P(X = 1)");
    quantile(x, 2.5, 1 - q * q, "geometric: P(X <= 2)");
    double[] f = draws(t -> t.geometric_(0.5, new Generator(64)), DType.FLOAT32);
    assertTrue(Arrays.stream(f).allMatch(v -> v == Math.rint(v) && v >= 1), "whole numbers in a float tensor");
  }

  @Test
  void cauchyHasItsMedianAndQuartiles() {
    double median = 1, sigma = 2;
    double[] x = draws(t -> t.cauchy_(median, sigma, new Generator(62)), DType.FLOAT64);
    quantile(x, median, 0.5, "cauchy");
    quantile(x, median + sigma, 0.75, "cauchy");
    quantile(x, median - sigma, 0.25, "cauchy");
  }

  @Test
  void logNormalIsTheExpOfItsNormal() {
    double mu = 0.5, sigma = 0.4;
    double[] x = draws(t -> t.logNormal_(mu, sigma, new Generator(62)), DType.FLOAT64);
    assertTrue(Arrays.stream(x).allMatch(v -> v > 0), "positive");
    double[] logs = Arrays.stream(x).map(Math::log).toArray();
    moments(logs, mu, sigma * sigma, 3 * Math.pow(sigma, 4), "log of logNormal");
    quantile(x, Math.exp(mu), 0.5, "logNormal");
  }

  @Test
  void randomDrawsIntegersUniformlyInTheRange() {
    double[] x = draws(t -> t.random_(3, 10, new Generator(62)), DType.INT64);
    for (int v = 3; v < 10; v++) {
      final int value = v;
      double share = Arrays.stream(x).filter(e -> e == value).count() / (double) N;
      assertEquals(1 / 7.0, share, 5 * Math.sqrt((1 / 7.0) * (6 / 7.0) / N), "share of " + v);
    }
    assertTrue(Arrays.stream(x).allMatch(v -> v >= 3 && v < 10), "in [3, 10)");
    double[] f = draws(t -> t.random_(4, new Generator(63)), DType.FLOAT32);
    assertTrue(Arrays.stream(f).allMatch(v -> v == Math.rint(v) && v >= 0 && v < 4), "whole numbers in [0, 4)");
    double[] bytes = draws(t -> t.random_(0, 256, new Generator(64)), DType.UINT8);
    assertTrue(Arrays.stream(bytes).anyMatch(v -> v > 200), "uint8 reaches its top");
    double[] bools = draws(t -> t.random_(0, 2), DType.BOOL);
    assertEquals(0.5, Arrays.stream(bools).average().orElseThrow(), 5 * Math.sqrt(0.25 / N), "bool");
  }

  @Test
  void aSeedRepeatsItsDraws() {
    double[] one = draws(t -> t.exponential_(1, new Generator(5)), DType.FLOAT32);
    assertArrayEquals(one, draws(t -> t.exponential_(1, new Generator(5)), DType.FLOAT32));
    assertFalse(Arrays.equals(one, draws(t -> t.exponential_(1, new Generator(6)), DType.FLOAT32)));
    Generator.manualSeed(7);
    double[] byDefault = draws(t -> t.cauchy_(0, 1), DType.FLOAT64);
    Generator.manualSeed(7);
    assertArrayEquals(byDefault, draws(t -> t.cauchy_(0, 1), DType.FLOAT64));
    Tensor strided = Tensor.zeros(4, 6).t();  // written through its strides
    strided.logNormal_(0, 1, new Generator(1));
    assertTrue(Arrays.stream(strided.toDoubleArray()).allMatch(v -> v > 0));
    assertEquals(0, Tensor.empty(0).geometric_(0.5).numel());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor f = Tensor.empty(3), ints = Tensor.empty(new long[] {3}, DType.INT64);
    Goldens.refused("exponential_(): expects lambda > 0.0, but found lambda=0", () -> f.exponential_(0));
    Goldens.refused("exponential_(): expects lambda > 0.0, but found lambda=-1", () -> f.exponential_(-1));
    Goldens.refused("exponential_(): expects lambda > 0.0, but found lambda=nan", () -> f.exponential_(Double.NaN));
    Goldens.refused("exponential_(): Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified Long",
        () -> ints.exponential_(1));
    Goldens.refused("geometric_(): expects p to be in (0, 1), but got p=0", () -> f.geometric_(0));
    Goldens.refused("geometric_(): expects p to be in (0, 1), but got p=1", () -> f.geometric_(1));
    Goldens.refused("geometric_(): expects p to be in (0, 1), but got p=1.5", () -> f.geometric_(1.5));
    Goldens.refused("geometric_(): \"geometric_cpu\" not implemented for 'Bool'", () -> Tensor.empty(new long[] {3}, DType.BOOL).geometric_(0.5));
    Goldens.refused("cauchy_(): expects sigma > 0.0, but found sigma=0", () -> f.cauchy_(0, 0));
    Goldens.refused("cauchy_(): expects sigma > 0.0, but found sigma=-1", () -> f.cauchy_(0, -1));
    Goldens.refused("cauchy_(): Cauchy distribution is a continuous probability distribution. dtype must be a floating point", () -> ints.cauchy_(0, 1));
    Goldens.refused("logNormal_(): expects std > 0.0, but found std=0", () -> f.logNormal_(0, 0));
    Goldens.refused("logNormal_(): expects std > 0.0, but found std=-1", () -> f.logNormal_(0, -1));
    Goldens.refused("logNormal_(): \"log_normal_cpu\" not implemented for 'Long'", () -> ints.logNormal_(0, 1));
    Goldens.refused("generator must not be null", () -> f.exponential_(1, null));
    Goldens.refused("random_(): random_ expects 'from' to be less than 'to', but got from=5 >= to=5", () -> f.random_(5, 5));
    Goldens.refused("random_(): random_ expects 'from' to be less than 'to', but got from=0 >= to=-5", () -> f.random_(-5));
    Goldens.refused("random_(): to - 1 is out of bounds for uint8, got 299", () -> Tensor.empty(new long[] {3}, DType.UINT8).random_(0, 300));
    Goldens.refused("random_(): from is out of bounds for int8, got -200", () -> Tensor.empty(new long[] {3}, DType.INT8).random_(-200, 3));
    Goldens.refused("random_(): to - 1 is out of bounds for bool, got 2", () -> Tensor.empty(new long[] {3}, DType.BOOL).random_(0, 3));
    Tensor leaf = Tensor.ones(3).requiresGrad_(true);
    org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> leaf.exponential_(1));
    assertArrayEquals(new double[] {1, 1, 1}, leaf.toDoubleArray(), "a refused draw writes nothing");
  }
}
