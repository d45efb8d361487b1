package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Tensor.normal(mean, std, generator) with tensor mean and/or std (torch.normal's Tensor overloads):
 * broadcasting, dtypes and zero gradients as PyTorch 2.13 gives them; 100,000 draws at fixed seeds held
 * to their means and variances within 5 standard errors; PyTorch's refusals.
 */
class NormalFromTensorsTest extends ScopedTest {
  private static final int N = 100_000;

  private static void moments(double[] x, double mu, double sigma, String what) {
    double m = Arrays.stream(x).average().orElseThrow();
    double var = Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1);
    assertEquals(mu, m, 5 * sigma / Math.sqrt(x.length), what + ": mean");
    assertEquals(sigma * sigma, var, 5 * sigma * sigma * Math.sqrt(2.0 / x.length), what + ": variance");
  }

  @Test
  void eachElementHasItsOwnMeanAndStd() {
    Tensor mean = Tensor.fromArray(new double[] {-3, 10}).reshape(2, 1);
    Tensor std = Tensor.fromArray(new double[] {1, 5}).reshape(2, 1);
    Tensor x = Tensor.normal(mean.expand(2, N), std, new Generator(62));
    assertArrayEquals(new long[] {2, N}, x.shape());
    moments(x.select(0, 0).toDoubleArray(), -3, 1, "row 0");
    moments(x.select(0, 1).toDoubleArray(), 10, 5, "row 1");
    moments(Tensor.normal(Tensor.full(new long[] {N}, 3.0), 2.0, new Generator(63)).toDoubleArray(), 3, 2, "tensor mean, float std");
    moments(Tensor.normal(-1.0, Tensor.full(new long[] {N}, 0.5), new Generator(64)).toDoubleArray(), -1, 0.5, "float mean, tensor std");
  }

  @Test
  void shapesAndDtypesAreTorchNormals() {
    Generator g = new Generator(1);
    assertArrayEquals(new long[] {2, 3}, Tensor.normal(Tensor.zeros(2, 1), Tensor.ones(3), g).shape());
    assertArrayEquals(new long[] {3, 2, 1}, Tensor.normal(Tensor.zeros(2, 1), Tensor.ones(3, 1, 1), g).shape());
    assertEquals(DType.FLOAT32, Tensor.normal(Tensor.zeros(2), Tensor.ones(new long[] {2}, DType.FLOAT64), g).dtype());
    assertEquals(DType.FLOAT32, Tensor.normal(Tensor.zeros(2), Tensor.ones(new long[] {2}, DType.INT64), g).dtype());
    assertEquals(DType.FLOAT16, Tensor.normal(Tensor.zeros(new long[] {2}, DType.FLOAT16), Tensor.ones(2), g).dtype());
    assertEquals(DType.FLOAT64, Tensor.normal(Tensor.zeros(new long[] {2}, DType.FLOAT64), 1.0, g).dtype());
    assertEquals(DType.FLOAT16, Tensor.normal(0.0, Tensor.ones(new long[] {2}, DType.FLOAT16), g).dtype());
    assertEquals(0, Tensor.normal(Tensor.zeros(0), Tensor.ones(0), g).numel());
    assertArrayEquals(new double[] {0, 0, 0}, Tensor.normal(Tensor.zeros(3), 0.0, g).toDoubleArray());
    Generator.manualSeed(5);
    double[] once = Tensor.normal(Tensor.zeros(4), Tensor.ones(4)).toDoubleArray();
    Generator.manualSeed(5);
    assertArrayEquals(once, Tensor.normal(Tensor.zeros(4), Tensor.ones(4)).toDoubleArray());
  }

  @Test
  void meanAndStdGetZeroGradientsAsInPyTorch() {
    Tensor mean = Tensor.zeros(2, 1).requiresGrad_(true), std = Tensor.ones(3).requiresGrad_(true);
    Tensor x = Tensor.normal(mean, std, new Generator(2));
    assertTrue(x.requiresGrad());
    x.sum().backward();
    assertArrayEquals(new double[] {0, 0}, mean.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, 0, 0}, std.grad().toDoubleArray());
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Goldens.refused("normal(): normal expects all elements of std >= 0.0", () -> Tensor.normal(Tensor.zeros(2), Tensor.fromArray(new double[] {1, -1})));
    Goldens.refused("normal(): normal expects all elements of std >= 0.0", () -> Tensor.normal(Tensor.zeros(2), Tensor.fromArray(new double[] {1, Double.NaN})));
    Goldens.refused("normal(): normal expects all elements of std >= 0.0", () -> Tensor.normal(0.0, Tensor.ones(2).neg()));
    Goldens.refused("normal(): expects std >= 0.0, but found std -1", () -> Tensor.normal(Tensor.zeros(2), -1.0));
    Goldens.refused("normal(): \"normal_kernel_cpu\" not implemented for 'Long'", () -> Tensor.normal(Tensor.zeros(new long[] {2}, DType.INT64), 1.0));
    Goldens.refused("normal(): \"normal_kernel_cpu\" not implemented for 'Long'", () -> Tensor.normal(0.0, Tensor.ones(new long[] {2}, DType.INT64)));
    Goldens.refused("normal(): The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
        () -> Tensor.normal(Tensor.zeros(2), Tensor.ones(3)));
    Goldens.refused("normal(): generator must not be null", () -> Tensor.normal(Tensor.zeros(2), Tensor.ones(2), null));
  }
}
