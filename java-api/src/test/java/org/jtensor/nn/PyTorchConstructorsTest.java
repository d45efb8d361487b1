package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 point 3: the modules a PyTorch user builds first take PyTorch's positional arguments,
 * drawing from the default generator when none is given (torch.manual_seed's, Generator.manualSeed),
 * and Embedding has padding_idx.
 */
class PyTorchConstructorsTest {
  @Test
  void theFirstDaysConstructorsCompileAndDrawFromTheDefaultGenerator() {
    Generator.manualSeed(3);
    try (Linear a = new Linear(4, 2); Linear noBias = new Linear(4, 2, false); Conv2d conv = new Conv2d(1, 4, 3);
         MaxPool2d pool = new MaxPool2d(2, 2); Dropout drop = new Dropout(); Embedding emb = new Embedding(10, 3)) {
      assertArrayEquals(new long[] {2, 4}, a.weight().shape());
      assertNull(noBias.bias());
      assertEquals(List.of("weight"), List.copyOf(noBias.namedParameters().keySet()));
      assertEquals(List.of("weight", "bias"), List.copyOf(conv.namedParameters().keySet()));
      Generator.manualSeed(3);
      try (Linear again = new Linear(4, 2)) {
        assertArrayEquals(a.weight().toDoubleArray(), again.weight().toDoubleArray(), 0, "the same seed, the same weights");
      }
      try (TensorScope s = TensorScope.open()) {
        Tensor x = Tensor.ones(1, 1, 6, 6);
        assertArrayEquals(new long[] {1, 4, 2, 2}, pool.forward(conv.forward(x)).shape());
        Tensor kept = drop.forward(Tensor.ones(1000));
        double zeros = kept.eq(0.0).sum().item();
        assertTrue(zeros > 400 && zeros < 600, "p = 0.5 by default: " + zeros + " of 1000 dropped");
      }
    }
  }

  @Test
  void paddingIdxStartsAtZeroAndTakesNoGradient() {
    try (Embedding emb = new Embedding(5, 3, -1L, new Generator(4)); TensorScope s = TensorScope.open()) {
      assertEquals(4L, emb.paddingIdx(), "-1 counts from the end");
      assertArrayEquals(new double[] {0, 0, 0}, emb.weight().select(0, 4).toDoubleArray(), 0);
      Tensor idx = Tensor.fromArray(new long[] {4, 1, 4, 2});
      Tensor out = emb.forward(idx);
      out.mul(Tensor.arange(12).reshape(4, 3).to(org.jtensor.DType.FLOAT32)).sum().backward();
      Tensor grad = emb.weight().grad();
      assertArrayEquals(new double[] {0, 0, 0}, grad.select(0, 4).toDoubleArray(), 0, "the padding row gets no gradient");
      assertArrayEquals(new double[] {3, 4, 5}, grad.select(0, 1).toDoubleArray(), 0);
      assertArrayEquals(new double[] {9, 10, 11}, grad.select(0, 2).toDoubleArray(), 0);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Embedding(5, 3, 5L, new Generator(1)));
      assertTrue(e.getMessage().startsWith("Embedding(): Padding_idx must be within num_embeddings"), e.getMessage());
    }
  }
}
