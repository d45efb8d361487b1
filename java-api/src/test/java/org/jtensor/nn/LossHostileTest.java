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
}
