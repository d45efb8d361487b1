package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The short forms a training loop types, as PyTorch users type them. */
class TrainingApiTest {
  @Test
  void theDefaultGeneratorIsSeededByManualSeed() {
    try (TensorScope s = TensorScope.open()) {
      Generator.manualSeed(42);
      double[] a = Tensor.randn(3, 4).toDoubleArray();
      long[] p = Tensor.randperm(10).toLongArray();
      Generator.manualSeed(42);
      assertArrayEquals(a, Tensor.randn(3, 4).toDoubleArray(), 0);
      assertArrayEquals(p, Tensor.randperm(10).toLongArray());
      long[] sorted = p.clone();
      Arrays.sort(sorted);
      assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, sorted);
      assertEquals(DType.INT64, Tensor.randint(0, 5, 2, 2).dtype());
    }
  }

  @Test
  void shortForms() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.arange(6).reshape(2, 3).to(DType.FLOAT32);
      assertArrayEquals(new double[] {15}, x.sum(0, 1).reshape(1).toDoubleArray(), 0);
      assertArrayEquals(new double[] {2, 5}, x.max(1).values().toDoubleArray(), 0);
      assertArrayEquals(new double[] {0, 1, 4, 9, 16, 25}, x.square().reshape(6).toDoubleArray(), 0);
      assertArrayEquals(new double[] {1, 0, -1, -2, -3, -4}, x.rsub(1.0).reshape(6).toDoubleArray(), 0);
      assertEquals(DType.FLOAT32, Tensor.full(new long[] {2}, 1.5).dtype());
      assertEquals(DType.INT64, Tensor.full(new long[] {2}, 2).dtype());
      assertArrayEquals(new double[] {1, 0, 1}, Tensor.where(Tensor.fromArray(new boolean[] {true, false, true}), 1.0, 0.0).toDoubleArray(), 0);
      Tensor y = Tensor.zeros(2, 3);
      y.sub_(Tensor.ones(2, 3), 2.0);
      y.set(Tensor.ones(3), Index.at(0));
      y.set(7, Index.at(1), Index.slice(0, 3, 2));
      assertArrayEquals(new double[] {1, 1, 1, 7, -2, 7}, y.reshape(6).toDoubleArray(), 0);
    }
  }
}
