package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** Hostile inputs to the losses, each against the value, gradient or refusal PyTorch 2.13 (CPU) gave, quoted per test. */
class LossHostileTest extends ScopedTest {

  private static void assertMessage(RuntimeException e, String... parts) {
    for (String p : parts) assertTrue(e.getMessage() != null && e.getMessage().contains(p), "message '" + e.getMessage() + "' lacks '" + p + "'");
  }

  private static Tensor longs(long... v) {
    return Tensor.fromArray(v);
  }

  /**
   * F.binary_cross_entropy_with_logits(x, t, reduction='sum') for x = [0, 0, 100, -100, 1e4, -1e4],
   * t = [1, 0, 1, 0, 0, 1]: 20001.38671875; x.grad = σ(x) − t = [-0.5, 0.5, 0, 0, 1, -1] (jtensor gave
   * 1 − t at a logit of exactly 0, through clampMin's and abs's kinks), t.grad = −x.
   */
  @Test
  void binaryCrossEntropyWithLogitsGradientAtALogitOfZero() {
    Tensor x = Tensor.fromArray(new float[] {0, 0, 100, -100, 1e4f, -1e4f}).requiresGrad_(true);
    Tensor t = Tensor.fromArray(new float[] {1, 0, 1, 0, 0, 1}).requiresGrad_(true);
    Tensor loss = Functional.binaryCrossEntropyWithLogits(x, t, Reduction.SUM);
    assertEquals(20001.38671875, loss.item(), 1e-3);
    loss.backward();
    assertArrayEquals(new double[] {-0.5, 0.5, 0, 0, 1, -1}, x.grad().toDoubleArray(), 1e-7);
    assertArrayEquals(new double[] {0, 0, -100, 100, -1e4, 1e4}, t.grad().toDoubleArray(), 1e-7);
    Tensor z = Tensor.zeros(2).requiresGrad_(true);  // mean: [-0.25, 0.25]
    Functional.binaryCrossEntropyWithLogits(z, Tensor.fromArray(new float[] {1, 0}), Reduction.MEAN).backward();
    assertArrayEquals(new double[] {-0.25, 0.25}, z.grad().toDoubleArray(), 1e-7);
  }

  /**
   * F.binary_cross_entropy in float16 with p = [0, 1, 0.5, 0.25], t = [.5, .5, .2, 1], p requiring
   * grad: 102.0625 (sum), p.grad [-inf, inf, 1.2002, -4]. jtensor's loss was NaN: its gradient
   * surrogate divided by max(p(1 − p), 1e-12), and 1e-12 is 0 in float16.
   */
  @Test
  void binaryCrossEntropyInFloat16AtZeroOrOneIsNotNaN() {
    Tensor p = Tensor.fromArray(new float[] {0, 1, 0.5f, 0.25f}).to(DType.FLOAT16).requiresGrad_(true);
    Tensor t = Tensor.fromArray(new float[] {.5f, .5f, .2f, 1}).to(DType.FLOAT16);
    Tensor loss = Functional.binaryCrossEntropy(p, t, Reduction.SUM);
    assertEquals(DType.FLOAT16, loss.dtype());
    assertEquals(102.0625, loss.item(), 0.07);
    loss.backward();
    assertEquals(DType.FLOAT16, p.grad().dtype());
    assertArrayEquals(new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 1.2002, -4}, p.grad().toDoubleArray(), 2e-3);
    assertArrayEquals(new double[] {50, 50, 0.6934, 1.3867},
        Functional.binaryCrossEntropy(p, t, Reduction.NONE).toDoubleArray(), 2e-3);
  }
}
