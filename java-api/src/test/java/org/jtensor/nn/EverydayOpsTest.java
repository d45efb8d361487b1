package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.jtensor.Close;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 21 point 4's losses and everyday ops against PyTorch 2.13 (resources/losses/fixtures.pt from
 * make_fixtures.py beside it): l1, smooth L1, Huber and KL divergence losses in each reduction;
 * cross entropy with class weights (with ignore_index and label smoothing) and with probability
 * targets; cosineSimilarity (a zero row included); roll; where(c, scalar, x); maskedFill with a
 * tensor value; argmax(dim). Values and every input's gradient for PyTorch's upstream gradient.
 */
class EverydayOpsTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/losses/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  /** Case name → jtensor's call on (a, b), with the case's index for its extra tensors. */
  private static Tensor call(String name, int i, Tensor a, Tensor b) {
    Tensor w = (Tensor) fixtures.get(i + ".weight"), c = (Tensor) fixtures.get(i + ".cond");
    Map<String, BiFunction<Tensor, Tensor, Tensor>> calls = Map.ofEntries(
        Map.entry("l1_mean", (x, y) -> Functional.l1Loss(x, y, Reduction.MEAN)),
        Map.entry("l1_sum", (x, y) -> Functional.l1Loss(x, y, Reduction.SUM)),
        Map.entry("l1_none", (x, y) -> Functional.l1Loss(x, y, Reduction.NONE)),
        Map.entry("smooth_l1_beta0.5", (x, y) -> Functional.smoothL1Loss(x, y, Reduction.MEAN, 0.5)),
        Map.entry("smooth_l1_beta1", (x, y) -> Functional.smoothL1Loss(x, y, Reduction.SUM, 1.0)),
        Map.entry("huber_delta0.7", (x, y) -> Functional.huberLoss(x, y, Reduction.MEAN, 0.7)),
        Map.entry("kl_batchmean", (x, y) -> Functional.klDiv(x, y, Reduction.MEAN, true, false)),
        Map.entry("kl_sum", (x, y) -> Functional.klDiv(x, y, Reduction.SUM, false, false)),
        Map.entry("kl_none", (x, y) -> Functional.klDiv(x, y, Reduction.NONE, false, false)),
        Map.entry("kl_log_target", (x, y) -> Functional.klDiv(x, y, Reduction.MEAN, true, true)),
        Map.entry("ce_weight", (x, y) -> Functional.crossEntropy(x, y, w, -100, 0.0, Reduction.MEAN)),
        Map.entry("ce_weight_smooth", (x, y) -> Functional.crossEntropy(x, y, w, -100, 0.2, Reduction.MEAN)),
        Map.entry("ce_weight_none", (x, y) -> Functional.crossEntropy(x, y, w, -100, 0.0, Reduction.NONE)),
        Map.entry("ce_probs", (x, y) -> Functional.crossEntropy(x, y, null, -100, 0.0, Reduction.MEAN)),
        Map.entry("ce_probs_weight_smooth", (x, y) -> Functional.crossEntropy(x, y, w, -100, 0.1, Reduction.MEAN)),
        Map.entry("cosine_dim1", (x, y) -> Functional.cosineSimilarity(x, y, 1, 1e-8)),
        Map.entry("cosine_dim0", (x, y) -> Functional.cosineSimilarity(x, y, 0, 1e-3)),
        Map.entry("roll_2d", (x, y) -> x.roll(new long[] {1, -3}, new int[] {0, 1})),
        Map.entry("roll_flat", (x, y) -> x.roll(new long[] {5}, new int[] {})),
        Map.entry("where_scalar_first", (x, y) -> Tensor.where(c, 1.5, x)),
        Map.entry("masked_fill_tensor", (x, y) -> x.maskedFill(c, y)),
        Map.entry("argmax_dim1", (x, y) -> x.argmax(1)));
    BiFunction<Tensor, Tensor, Tensor> fn = calls.get(name);
    assertNotNull(fn, name + ": no call for this case");
    return fn.apply(a, b);
  }

  /** Within 1e-12 of the largest magnitude (a zero row's cosine gradient is 1/eps-sized). */
  private static void close(double[] want, double[] got, String what) {
    Close.assertElements(what, want, got, Close.ofLargest(1e-12, want));
  }

  @Test
  void valuesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(22, cases.size());
    for (int i = 0; i < cases.size(); i++) {
      String name = (String) cases.get(i);
      boolean grad = fixtures.has(i + ".up"), gradB = fixtures.has(i + ".grad_b");
      Tensor a = f(i + ".a").clone().requiresGrad_(grad);
      Tensor b = fixtures.has(i + ".b") ? f(i + ".b").clone().requiresGrad_(gradB) : null;
      Tensor out = call(name, i, a, b), want = f(i + ".out");
      assertEquals(want.dtype(), out.dtype(), name + ": dtype");
      assertArrayEquals(want.shape(), out.shape(), name + ": shape");
      close(want.toDoubleArray(), out.toDoubleArray(), name + ": values");
      if (!grad) continue;
      out.mul(f(i + ".up")).sum().backward();
      close(f(i + ".grad_a").toDoubleArray(), a.grad().toDoubleArray(), name + ": a's gradient");
      if (gradB) close(f(i + ".grad_b").toDoubleArray(), b.grad().toDoubleArray(), name + ": b's gradient");
    }
  }

  @Test
  void aZeroVectorsNormHasGradientZeroNotNaN() {
    for (double p : new double[] {2.0, 3.0}) {
      Tensor z = Tensor.zeros(3).requiresGrad_(true);
      z.norm(p, null, false).backward();
      assertArrayEquals(new double[] {0, 0, 0}, z.grad().toDoubleArray(), 0, "p = " + p + ", as PyTorch's");
      assertTrue(Double.isNaN(Tensor.fromArray(new double[] {Double.NaN, 1}).norm(p, null, false).item()), "a NaN propagates");
      assertEquals(Double.POSITIVE_INFINITY, Tensor.fromArray(new double[] {Double.POSITIVE_INFINITY, 1}).norm(p, null, false).item());
    }
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(3, 4), t = Tensor.fromArray(new long[] {0, 1, 2});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Functional.crossEntropy(x, t, Tensor.ones(3), -100, 0.0, Reduction.MEAN));
    assertTrue(e.getMessage().startsWith("crossEntropy(): weight tensor should be defined either for all 4 classes"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.smoothL1Loss(x, x, Reduction.MEAN, -1));
    assertTrue(e.getMessage().contains("does not support negative values for beta"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.maskedFill(x.gt(0.0), Tensor.ones(2)));
    assertTrue(e.getMessage().contains("only supports a 0-dimensional value tensor"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.roll(new long[] {1, 2}, new int[] {0}));
    assertTrue(e.getMessage().startsWith("roll(): shifts and dimensions must align"), e.getMessage());
  }
}
