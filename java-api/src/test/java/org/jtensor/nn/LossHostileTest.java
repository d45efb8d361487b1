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

  /**
   * An ignored row whose class 0 has log-probability −inf (a masked padding class): x = [[-inf, 1, 2],
   * [0, 1, 2]], target [-100, 1]. PyTorch skips the row: F.cross_entropy gives 1.4076059 (mean, and
   * with label_smoothing 0.1), weighted by [1, 2, 3] 1.4076059 (mean), 2.8152118 (sum), with both
   * 1.3742725 (mean), 2.7485449 (sum), none [0, ...], the ignored row's gradient 0. jtensor multiplied
   * the row's −log p (inf) by 0: NaN for every reduction.
   */
  @Test
  void crossEntropyIgnoredRowWithAMinusInfinityLogitIsNotNaN() {
    double inf = Double.POSITIVE_INFINITY;
    Tensor w = Tensor.fromArray(new float[] {1, 2, 3});
    Object[][] cases = {  // label smoothing, weighted, reduction, loss, row 2's gradient
        {0.0, false, Reduction.MEAN, 1.4076058864593506, new double[] {0.09003058, -0.75527149, 0.66524100}},
        {0.0, true, Reduction.SUM, 2.815211772918701, new double[] {0.18006116, -1.51054299, 1.33048201}},
        {0.1, false, Reduction.MEAN, 1.4076058864593506, new double[] {0.05669725, -0.68860483, 0.63190764}},
        {0.1, true, Reduction.MEAN, 1.3742724657058716, new double[] {0.07336392, -0.68860483, 0.61524099}},
        {0.1, true, Reduction.SUM, 2.748544931411743, new double[] {0.14672783, -1.37720966, 1.23048198}},
    };
    for (Object[] c : cases) {
      Tensor x = Tensor.fromArray(new float[] {(float) -inf, 1, 2, 0, 1, 2}, 2, 3).requiresGrad_(true);
      double ls = (double) c[0];
      Tensor loss = (boolean) c[1] ? Functional.crossEntropy(x, longs(-100, 1), w, -100, ls, (Reduction) c[2])
          : Functional.crossEntropy(x, longs(-100, 1), -100, ls, (Reduction) c[2]);
      assertEquals((double) c[3], loss.item(), 1e-5, () -> "case " + Arrays.toString(c));
      loss.backward();
      double[] g = x.grad().toDoubleArray();
      assertArrayEquals(new double[] {0, 0, 0}, Arrays.copyOfRange(g, 0, 3), () -> "case " + Arrays.toString(c));
      assertArrayEquals((double[]) c[4], Arrays.copyOfRange(g, 3, 6), 1e-5, () -> "case " + Arrays.toString(c));
    }
    Tensor x = Tensor.fromArray(new float[] {(float) -inf, 1, 2, 0, 1, 2}, 2, 3);
    assertArrayEquals(new double[] {0, 2.748544931411743},
        Functional.crossEntropy(x, longs(-100, 1), w, -100, 0.1, Reduction.NONE).toDoubleArray(), 1e-5);
    assertArrayEquals(new double[] {0, 1.4076058864593506},
        Functional.crossEntropy(x, longs(-100, 1), -100, 0.1, Reduction.NONE).toDoubleArray(), 1e-5);
    Tensor lp = Tensor.fromArray(new float[] {(float) -inf, -1, -2, -3, -1, -2}, 2, 3).requiresGrad_(true);
    assertArrayEquals(new double[] {0, 1}, Functional.nllLoss(lp, longs(-100, 1), -100, Reduction.NONE).toDoubleArray());
    Tensor mean = Functional.nllLoss(lp, longs(-100, 1));
    assertEquals(1.0, mean.item());
    mean.backward();
    assertArrayEquals(new double[] {0, 0, 0, 0, -1, 0}, lp.grad().toDoubleArray());
  }

  /** F.nll_loss(torch.tensor(1.), torch.tensor(0)): ValueError "Expected 1 or more dimensions (got 0)"; jtensor threw NegativeArraySizeException. */
  @Test
  void nllLossOfAZeroDimInputIsRefusedNotACrash() {
    RuntimeException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.nllLoss(Tensor.scalar(1.0f), Tensor.zeros(new long[] {}, DType.INT64)));
    assertMessage(e, "nllLoss()", "Expected 1 or more dimensions (got 0)");
  }

  /**
   * Targets of a 1-D (unbatched) input: F.nll_loss(tensor([-1., -2, -3]), tensor([1]), reduction='none')
   * is tensor(2.) (0-dim; jtensor gave [1]); a target [2] is refused "For 1D input, 1D target must have
   * size 1, but got target size: 2" (jtensor: reshape's words), [[1]] "0D or 1D target tensor expected,
   * multi-target not supported" (jtensor took it), and [2, 3] with a target [3] "Expected input
   * batch_size (2) to match target batch_size (3).", with a 0-dim target "(0)".
   */
  @Test
  void nllLossTargetsOfAnUnbatchedInputFollowPyTorchsRules() {
    Tensor lp = Tensor.fromArray(new float[] {-1, -2, -3});
    Tensor none = Functional.nllLoss(lp, longs(1), -100, Reduction.NONE);
    assertArrayEquals(new long[0], none.shape());
    assertEquals(2.0, none.item());
    Tensor ce = Functional.crossEntropy(Tensor.fromArray(new float[] {1, 2, 3}), longs(1), Tensor.ones(3), -100, 0, Reduction.NONE);
    assertArrayEquals(new long[0], ce.shape());
    assertEquals(1.4076058865, ce.item(), 1e-6);
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.nllLoss(lp, longs(1, 0)));
    assertMessage(e, "nllLoss()", "For 1D input, 1D target must have size 1, but got target size: 2");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(lp, Tensor.fromArray(new long[] {1}, 1, 1)));
    assertMessage(e, "crossEntropy()", "0D or 1D target tensor expected, multi-target not supported");
    Tensor x = Tensor.zeros(2, 3);
    e = assertThrows(IllegalArgumentException.class, () -> Functional.nllLoss(x, longs(0, 1, 2)));
    assertMessage(e, "nllLoss()", "Expected input batch_size (2) to match target batch_size (3).");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.nllLoss(x, Tensor.zeros(new long[] {}, DType.INT64)));
    assertMessage(e, "nllLoss()", "Expected input batch_size (2) to match target batch_size (0).");
  }

  /**
   * Session 33's first day: class labels made as floats (torch.tensor([0., 1., 2., 3.])) are class indices to PyTorch,
   * refused for their dtype; jtensor took them for probabilities and said "Expected input batch_size and target
   * batch_size to match" of equal batches. The messages and their order are PyTorch 2.13's.
   */
  @Test
  void aFloatTargetOfAnotherShapeIsRefusedAsPyTorchRefusesClassIndices() {
    Tensor x = Tensor.zeros(4, 5);
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, Tensor.fromArray(new float[] {0, 1, 2, 3})));
    assertMessage(e, "crossEntropy()", "expected target dtype to be Long or Byte, but got Float");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, Tensor.zeros(new long[] {4}, DType.FLOAT64), Tensor.ones(5), -100, 0, Reduction.MEAN));
    assertMessage(e, "crossEntropy()", "expected target dtype to be Long or Byte, but got Double");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, Tensor.zeros(3)));
    assertMessage(e, "crossEntropy()", "Expected input batch_size (4) to match target batch_size (3).");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, Tensor.zeros(4, 3)));
    assertMessage(e, "crossEntropy()", "0D or 1D target tensor expected, multi-target not supported");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(Tensor.zeros(2, 5, 3), Tensor.zeros(new long[] {2, 4}, DType.INT32)));
    assertMessage(e, "crossEntropy()", "Expected target size [2, 3], got [2, 4]");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.nllLoss(Tensor.zeros(2, 5, 3), Tensor.zeros(new long[] {2, 4}, DType.UINT8)));
    assertMessage(e, "nllLoss()", "Expected target size [2, 3], got [2, 4]");
    e = assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(Tensor.zeros(5), Tensor.zeros(new long[] {2}, DType.INT32)));
    assertMessage(e, "crossEntropy()", "expected target dtype to be Long or Byte, but got Int");
  }

  /**
   * A class weight of another dtype than the logits: F.cross_entropy(float32 x, int64 t, weight=float64)
   * refuses, "expected scalar type Float but found Double" (its kernel reads the weight as the input's
   * type); jtensor converted it. With class probabilities PyTorch takes it, and so does jtensor.
   */
  @Test
  void crossEntropyRefusesAClassWeightOfAnotherDtypeWithClassIndices() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    RuntimeException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.crossEntropy(x, longs(0, 2), Tensor.ones(new long[] {3}, DType.FLOAT64), -100, 0, Reduction.MEAN));
    assertMessage(e, "crossEntropy()", "expected scalar type Float but found Double");
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.crossEntropy(x, longs(0, 2), Tensor.ones(new long[] {3}, DType.INT64), -100, 0, Reduction.MEAN));
    assertMessage(e, "crossEntropy()", "expected scalar type Float but found Long");
    Tensor soft = Tensor.fromArray(new float[] {1, 0, 0, 0, 0.5f, 0.5f}, 2, 3);
    assertEquals(Functional.crossEntropy(x, soft, Tensor.ones(3), -100, 0, Reduction.MEAN).item(),
        Functional.crossEntropy(x, soft, Tensor.ones(new long[] {3}, DType.FLOAT64), -100, 0, Reduction.MEAN).item(), 1e-6);
  }

  /**
   * uint8 class indices: F.cross_entropy([[1., 2, 3], [4, 5, 6]], tensor([0, 255], dtype=uint8),
   * ignore_index=255) = 2.4076059; reduction='none' with [0, 2]: [2.4076059, 0.4076059]. jtensor
   * refused all but int64; PyTorch refuses int32 with "expected target dtype to be Long or Byte, but
   * got Int", and uint8 over [N, C, d] with "expected scalar type Long but found Byte".
   */
  @Test
  void classIndicesOfUint8AreTakenAsPyTorchTakesThem() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor t = longs(0, 255).to(DType.UINT8);
    assertEquals(2.4076058864593506, Functional.crossEntropy(x, t, 255, 0, Reduction.MEAN).item(), 1e-6);
    assertArrayEquals(new double[] {2.4076058864593506, 0.40760594606399536},
        Functional.crossEntropy(x, longs(0, 2).to(DType.UINT8), Tensor.ones(3), -100, 0, Reduction.NONE).toDoubleArray(), 1e-6);
    RuntimeException e = assertThrows(IllegalArgumentException.class, () -> Functional.nllLoss(x, longs(0, 1).to(DType.INT32)));
    assertMessage(e, "nllLoss()", "expected target dtype to be Long or Byte, but got Int");
    e = assertThrows(IllegalArgumentException.class,
        () -> Functional.crossEntropy(Tensor.zeros(2, 3, 2), Tensor.zeros(new long[] {2, 2}, DType.UINT8)));
    assertMessage(e, "crossEntropy()", "expected scalar type Long but found Byte");
  }

  /**
   * Class probabilities through the overloads without a weight: F.cross_entropy(x, p) = 1.7576059,
   * label_smoothing=0.1 1.7226059, reduction='none' [1.1076059, 2.4076059], for x = [[1., 2, 3],
   * [4, 5, 6]], p = [[.2, .3, .5], [1, 0, 0]]. jtensor refused them ("expected target of class indices").
   */
  @Test
  void crossEntropyTakesClassProbabilitiesWithoutAWeight() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor p = Tensor.fromArray(new float[] {.2f, .3f, .5f, 1, 0, 0}, 2, 3);
    assertEquals(1.7576059103012085, Functional.crossEntropy(x, p).item(), 1e-6);
    assertEquals(1.7226059436798096, Functional.crossEntropy(x, p, -100, 0.1, Reduction.MEAN).item(), 1e-6);
    assertArrayEquals(new double[] {1.1076059341430664, 2.4076058864593506},
        Functional.crossEntropy(x, p, -100, 0, Reduction.NONE).toDoubleArray(), 1e-6);
  }

  /**
   * Integer inputs: F.mse_loss(tensor([1, 2]), tensor([0, 5]), reduction='sum') raises
   * NotImplementedError "mse_cpu" not implemented for 'Long' (smooth_l1_loss "smooth_l1_cpu", huber_loss
   * "huber_cpu", kl_div "Integral inputs not supported."); jtensor gave 10 and float losses.
   * smooth_l1_loss with beta 0 is l1_loss, which takes integers: 4.
   */
  @Test
  void regressionLossesRefuseIntegerInputsAsPyTorch() {
    Tensor a = longs(1, 2), b = longs(0, 5);
    RuntimeException e = assertThrows(UnsupportedOperationException.class, () -> Functional.mseLoss(a, b, Reduction.SUM));
    assertMessage(e, "mseLoss()", "\"mse_cpu\" not implemented for 'Long'");
    e = assertThrows(UnsupportedOperationException.class, () -> Functional.smoothL1Loss(a, b, Reduction.NONE, 1));
    assertMessage(e, "smoothL1Loss()", "\"smooth_l1_cpu\" not implemented for 'Long'");
    e = assertThrows(UnsupportedOperationException.class, () -> Functional.huberLoss(a, b, Reduction.SUM, 1));
    assertMessage(e, "huberLoss()", "\"huber_cpu\" not implemented for 'Long'");
    e = assertThrows(UnsupportedOperationException.class, () -> Functional.klDiv(a, b.to(DType.FLOAT32), Reduction.SUM, false, false));
    assertMessage(e, "klDiv()", "Integral inputs not supported");
    assertEquals(4, Functional.smoothL1Loss(a, b, Reduction.SUM, 0).item());
    assertEquals(5.0, Functional.mseLoss(a, b.to(DType.FLOAT32)).item());
  }
}
