package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Tensor.poisson(rates, generator): counts cannot be PyTorch's (another generator), so 100,000 draws
 * per rate at fixed seeds are held to mean = variance = rate within 5 standard errors, on both sides
 * of the sampler's switch at rate 10; shapes, dtypes, zero gradients and refusals as PyTorch 2.13's.
 */
class PoissonTest extends ScopedTest {
  private static final int N = 100_000;

  @Test
  void countsHaveTheRateAsMeanAndVariance() {
    for (double rate : new double[] {0.5, 4, 9.99, 10, 30, 1000}) {
      double[] x = Tensor.poisson(Tensor.full(new long[] {N}, rate, DType.FLOAT64), new Generator(62)).toDoubleArray();
      assertTrue(Arrays.stream(x).allMatch(v -> v >= 0 && v == Math.rint(v)), rate + ": non-negative whole counts");
      double m = Arrays.stream(x).average().orElseThrow(), var = Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (N - 1);
      assertEquals(rate, m, 5 * Math.sqrt(rate / N), rate + ": mean");
      // the variance of a sample variance: (mu4 - var^2)/N with mu4 = rate(1 + 3 rate)
      assertEquals(rate, var, 5 * Math.sqrt((rate * (1 + 3 * rate) - rate * rate) / N), rate + ": variance");
      double p0 = Math.exp(-rate), zeros = Arrays.stream(x).filter(v -> v == 0).count() / (double) N;
      assertEquals(p0, zeros, 5 * Math.sqrt(p0 * (1 - p0) / N) + 1e-12, rate + ": P(0)");
    }
  }

  @Test
  void shapesDtypesAndSeeds() {
    Tensor rates = Tensor.fromArray(new double[] {0, 2, 0, 50}).reshape(2, 2).to(DType.FLOAT32);
    Tensor x = Tensor.poisson(rates, new Generator(3));
    assertEquals(DType.FLOAT32, x.dtype());
    assertArrayEquals(new long[] {2, 2}, x.shape());
    assertEquals(0, x.toDoubleArray()[0]);
    assertEquals(0, x.toDoubleArray()[2]);
    assertArrayEquals(x.toDoubleArray(), Tensor.poisson(rates, new Generator(3)).toDoubleArray());
    assertEquals(0, Tensor.poisson(Tensor.zeros(0)).numel());
    assertArrayEquals(new long[0], Tensor.poisson(Tensor.scalar(3.0)).shape());
    assertEquals(DType.BFLOAT16, Tensor.poisson(Tensor.ones(new long[] {3}, DType.BFLOAT16)).dtype());
  }

  @Test
  void ratesGetZeroGradientsAsInPyTorch() {
    Tensor rates = Tensor.full(new long[] {3}, 2.0).requiresGrad_(true);
    Tensor x = Tensor.poisson(rates, new Generator(4));
    assertTrue(x.requiresGrad());
    x.sum().backward();
    assertArrayEquals(new double[] {0, 0, 0}, rates.grad().toDoubleArray());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Goldens.refused("poisson(): invalid Poisson rate, expected rate to be non-negative", () -> Tensor.poisson(Tensor.fromArray(new double[] {1, -1})));
    Goldens.refused("poisson(): invalid Poisson rate, expected rate to be non-negative", () -> Tensor.poisson(Tensor.fromArray(new double[] {Double.NaN})));
    Goldens.refused("poisson(): \"poisson_cpu\" not implemented for 'Long'", () -> Tensor.poisson(Tensor.fromArray(new long[] {1})));
    Goldens.refused("poisson(): generator must not be null", () -> Tensor.poisson(Tensor.ones(1), null));
  }
}
