package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The margin, embedding and likelihood losses against PyTorch 2.13 (resources/marginlosses/fixtures.pt
 * from make_fixtures.py beside it): values in each reduction and every input's gradient for
 * PyTorch's upstream gradient; GradCheck in float64; PyTorch's refusals.
 */
class MarginLossesTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/marginlosses/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> CALLS = Map.ofEntries(
      Map.entry("margin_ranking_mean", in -> Functional.marginRankingLoss(in.get(0), in.get(1), in.get(2), 0.3, Reduction.MEAN)),
      Map.entry("margin_ranking_sum", in -> Functional.marginRankingLoss(in.get(0), in.get(1), in.get(2), 0.3, Reduction.SUM)),
      Map.entry("margin_ranking_none", in -> Functional.marginRankingLoss(in.get(0), in.get(1), in.get(2), 0.3, Reduction.NONE)),
      Map.entry("margin_ranking_broadcast", in -> Functional.marginRankingLoss(in.get(0), in.get(1), in.get(2), 0, Reduction.NONE)),
      Map.entry("hinge_mean", in -> Functional.hingeEmbeddingLoss(in.get(0), in.get(1), 1.5, Reduction.MEAN)),
      Map.entry("hinge_none", in -> Functional.hingeEmbeddingLoss(in.get(0), in.get(1), 1.0, Reduction.NONE)),
      Map.entry("soft_margin_mean", in -> Functional.softMarginLoss(in.get(0), in.get(1), Reduction.MEAN)),
      Map.entry("soft_margin_broadcast_none", in -> Functional.softMarginLoss(in.get(0), in.get(1), Reduction.NONE)),
      Map.entry("multilabel_soft_margin", in -> Functional.multilabelSoftMarginLoss(in.get(0), in.get(1), null, Reduction.MEAN)),
      Map.entry("multilabel_soft_margin_weight_none", in -> Functional.multilabelSoftMarginLoss(in.get(0), in.get(1), in.get(2), Reduction.NONE)),
      Map.entry("multilabel_soft_margin_1d_sum", in -> Functional.multilabelSoftMarginLoss(in.get(0), in.get(1), null, Reduction.SUM)),
      Map.entry("cosine_embedding_mean", in -> Functional.cosineEmbeddingLoss(in.get(0), in.get(1), in.get(2), -0.2, Reduction.MEAN)),
      Map.entry("cosine_embedding_none", in -> Functional.cosineEmbeddingLoss(in.get(0), in.get(1), in.get(2), 0, Reduction.NONE)),
      Map.entry("cosine_embedding_1d", in -> Functional.cosineEmbeddingLoss(in.get(0), in.get(1), in.get(2), 0.1, Reduction.MEAN)),
      Map.entry("pairwise_distance_p3_keepdim", in -> Functional.pairwiseDistance(in.get(0), in.get(1), 3.0, 1e-4, true)),
      Map.entry("pairwise_distance_broadcast", in -> Functional.pairwiseDistance(in.get(0), in.get(1), 2.0, 1e-6, false)),
      Map.entry("triplet_mean", in -> Functional.tripletMarginLoss(in.get(0), in.get(1), in.get(2), 1.0, 2.0, 1e-6, false, Reduction.MEAN)),
      Map.entry("triplet_p1_swap_none", in -> Functional.tripletMarginLoss(in.get(0), in.get(1), in.get(2), 2.0, 1.0, 1e-3, true, Reduction.NONE)),
      Map.entry("triplet_swap_sum", in -> Functional.tripletMarginLoss(in.get(0), in.get(1), in.get(2), 1.5, 2.0, 1e-6, true, Reduction.SUM)),
      Map.entry("poisson_log_mean", in -> Functional.poissonNllLoss(in.get(0), in.get(1), true, false, 1e-8, Reduction.MEAN)),
      Map.entry("poisson_full_none", in -> Functional.poissonNllLoss(in.get(0), in.get(1), true, true, 1e-8, Reduction.NONE)),
      Map.entry("poisson_rate_full_sum", in -> Functional.poissonNllLoss(in.get(0), in.get(1), false, true, 1e-6, Reduction.SUM)),
      Map.entry("gaussian_mean", in -> Functional.gaussianNllLoss(in.get(0), in.get(1), in.get(2), false, 1e-6, Reduction.MEAN)),
      Map.entry("gaussian_full_none", in -> Functional.gaussianNllLoss(in.get(0), in.get(1), in.get(2), true, 1e-4, Reduction.NONE)),
      Map.entry("gaussian_short_var_sum", in -> Functional.gaussianNllLoss(in.get(0), in.get(1), in.get(2), false, 1e-6, Reduction.SUM)),
      Map.entry("gaussian_size1_var", in -> Functional.gaussianNllLoss(in.get(0), in.get(1), in.get(2), false, 1e-6, Reduction.MEAN)),
      Map.entry("multi_margin_mean", in -> Functional.multiMarginLoss(in.get(0), in.get(1), 1, 1.0, null, Reduction.MEAN)),
      Map.entry("multi_margin_p2_weight_none", in -> Functional.multiMarginLoss(in.get(0), in.get(1), 2, 0.7, in.get(2), Reduction.NONE)),
      Map.entry("multi_margin_1d_sum", in -> Functional.multiMarginLoss(in.get(0), in.get(1), 1, 2.0, null, Reduction.SUM)),
      Map.entry("multilabel_margin_none", in -> Functional.multilabelMarginLoss(in.get(0), in.get(1), Reduction.NONE)),
      Map.entry("multilabel_margin_mean", in -> Functional.multilabelMarginLoss(in.get(0), in.get(1), Reduction.MEAN)),
      Map.entry("multilabel_margin_1d", in -> Functional.multilabelMarginLoss(in.get(0), in.get(1), Reduction.NONE)));

  private static void close(String what, Tensor want, Tensor got) {
    Close.assertTensor(what, want, got, 1e-12);
  }

  @Test
  void valuesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(CALLS.size(), cases.size());
    for (int i = 0; i < cases.size(); i++) {
      String name = (String) cases.get(i);
      Function<List<Tensor>, Tensor> call = CALLS.get(name);
      assertNotNull(call, name + ": no call for this case");
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(i + ".in" + k); k++) in.add(fixtures.tensor(i + ".in" + k).clone().requiresGrad_(fixtures.has(i + ".grad" + k)));
      Tensor out = call.apply(in);
      close(name + ": values", fixtures.tensor(i + ".out"), out);
      out.mul(fixtures.tensor(i + ".up")).sum().backward();
      for (int k = 0; k < in.size(); k++) {
        if (fixtures.has(i + ".grad" + k)) close(name + ": input " + k + "'s gradient", fixtures.tensor(i + ".grad" + k), in.get(k).grad());
      }
    }
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor a = Tensor.randn(4, 3).to(DType.FLOAT64), b = Tensor.randn(4, 3).to(DType.FLOAT64), c = Tensor.randn(4, 3).to(DType.FLOAT64);
    Tensor y = Tensor.fromArray(new double[] {1, -1, 1, -1}), t = Tensor.randint(0, 2, new long[] {4, 3}).to(DType.FLOAT64);
    GradCheck.check(in -> Functional.cosineEmbeddingLoss(in.get(0), in.get(1), y, 0.1, Reduction.NONE), List.of(a, b));
    GradCheck.check(in -> Functional.tripletMarginLoss(in.get(0), in.get(1), in.get(2), 1.0, 2.0, 1e-6, true, Reduction.NONE), List.of(a, b, c));
    GradCheck.check(in -> Functional.multilabelSoftMarginLoss(in.get(0), t, in.get(1).select(0, 0), Reduction.NONE), List.of(a, b));
    GradCheck.check(in -> Functional.softMarginLoss(in.get(0), y.unsqueeze(1), Reduction.SUM), List.of(a));
    GradCheck.check(in -> Functional.poissonNllLoss(in.get(0), t.mul(3.0), true, true, 1e-8, Reduction.MEAN), List.of(a));
    Tensor cls = Tensor.fromArray(new long[] {2, 0, 1, 2}), labels = Tensor.fromArray(new long[] {1, 2, -1, 0, 0, -1, 1, 2, 2, 1, 0, -1}).reshape(4, 3);
    GradCheck.check(in -> Functional.multiMarginLoss(in.get(0), cls, 2, 0.9, null, Reduction.NONE), List.of(a));
    GradCheck.check(in -> Functional.multilabelMarginLoss(in.get(0), labels, Reduction.NONE), List.of(a));
    GradCheck.check(in -> Functional.gaussianNllLoss(in.get(0), in.get(1), in.get(2).abs().add(0.1), true, 1e-6, Reduction.NONE), List.of(a, b, c));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(3, 4);
    assertMessage("marginRankingLoss(): margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: [3], "
        + "input2: [3, 1], target: [3]", () -> Functional.marginRankingLoss(Tensor.randn(3), Tensor.randn(3, 1), Tensor.ones(3), 0, Reduction.MEAN));
    assertMessage("cosineEmbeddingLoss(): 0D or 1D target tensor expected, multi-target not supported",
        () -> Functional.cosineEmbeddingLoss(x, x, Tensor.ones(3, 1), 0, Reduction.MEAN));
    assertMessage("cosineEmbeddingLoss(): 0D target tensor expects 1D input tensors, but found inputs with sizes [3, 4] and [3, 4].",
        () -> Functional.cosineEmbeddingLoss(x, x, Tensor.ones(), 0, Reduction.MEAN));
    assertMessage("tripletMarginLoss(): The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
        + "anchor 2D, positive 2D, and negative 1D inputs", () -> Functional.tripletMarginLoss(x, x, Tensor.randn(4), 1, 2, 1e-6, false, Reduction.MEAN));
    assertMessage("tripletMarginLoss(): margin must be greater than 0, got 0.0",
        () -> Functional.tripletMarginLoss(x, x, x, 0, 2, 1e-6, false, Reduction.MEAN));
    assertMessage("gaussianNllLoss(): var has negative entry/entries",
        () -> Functional.gaussianNllLoss(x, x, Tensor.ones(3, 4).neg(), false, 1e-6, Reduction.MEAN));
    assertMessage("gaussianNllLoss(): var is of incorrect size", () -> Functional.gaussianNllLoss(x, x, Tensor.ones(3, 2), false, 1e-6, Reduction.MEAN));
    assertMessage("gaussianNllLoss(): var is of incorrect size", () -> Functional.gaussianNllLoss(x, x, Tensor.ones(1, 1), false, 1e-6, Reduction.MEAN));
    Tensor cls = Tensor.fromArray(new long[] {0, 3, 1});
    assertMessage("multiMarginLoss(): only p == 1 and p == 2 supported", () -> Functional.multiMarginLoss(x, cls, 3, 1, null, Reduction.MEAN));
    assertMessage("multiMarginLoss(): weight must be one-dimensional", () -> Functional.multiMarginLoss(x, cls, 1, 1, Tensor.ones(4, 1), Reduction.MEAN));
    assertMessage("multiMarginLoss(): inconsistent weight size, expected 4 but got [3]",
        () -> Functional.multiMarginLoss(x, cls, 1, 1, Tensor.ones(3), Reduction.MEAN));
    assertMessage("multiMarginLoss(): multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch size). "
        + "Expected target size [3], but got [2]. Input has shape [3, 4].",
        () -> Functional.multiMarginLoss(x, Tensor.fromArray(new long[] {0, 1}), 1, 1, null, Reduction.MEAN));
    assertMessage("multiMarginLoss(): Expected non-empty vector or matrix with optional 0-dim batch size, but got: [3, 0]",
        () -> Functional.multiMarginLoss(Tensor.randn(3, 0), cls, 1, 1, null, Reduction.MEAN));
    assertMessage("multiMarginLoss(): expected scalar type int64 but found float32",
        () -> Functional.multiMarginLoss(x, cls.to(DType.FLOAT32), 1, 1, null, Reduction.MEAN));
    assertMessage("multiMarginLoss(): The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. This input cannot "
        + "have requires_grad True.", () -> Functional.multiMarginLoss(x, cls, 1, 1, Tensor.ones(4).requiresGrad_(true), Reduction.MEAN));
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
        () -> Functional.multiMarginLoss(x, Tensor.fromArray(new long[] {0, 4, 1}), 1, 1, null, Reduction.MEAN));
    assertEquals("multiMarginLoss(): target out of range", e.getMessage());
    Tensor labels = Tensor.fromArray(new long[] {3, 0, -1, 1, 0, 1, 2, 3, 1, 1, -1, -1}).reshape(3, 4);
    assertMessage("multilabelMarginLoss(): inconsistent target size: [1, 4] for input of size: [3, 4]",
        () -> Functional.multilabelMarginLoss(x, labels.narrow(0, 0, 1), Reduction.MEAN));
    for (long bad : new long[] {-2, 4}) {  // past the first −1 too: every entry is checked, as ATen's
      Tensor t = labels.clone();
      t.set(bad, org.jtensor.Index.at(0), org.jtensor.Index.at(3));
      e = assertThrows(IndexOutOfBoundsException.class, () -> Functional.multilabelMarginLoss(x, t, Reduction.MEAN));
      assertEquals("multilabelMarginLoss(): argument #2 'target' is out of range", e.getMessage());
    }
  }

  /** PyTorch 2.13: log1p(exp(100)) overflows float32 to inf; an empty input's mean is NaN, its sum 0. */
  @Test
  void overflowAndEmptyInputsGivePyTorchsValues() {
    assertEquals(Double.POSITIVE_INFINITY, Functional.softMarginLoss(Tensor.fromArray(new float[] {-100}), Tensor.ones(1), Reduction.MEAN).item());
    Tensor empty = Tensor.zeros(0);
    assertEquals(Double.NaN, Functional.hingeEmbeddingLoss(empty, empty, 1, Reduction.MEAN).item());
    assertEquals(0.0, Functional.softMarginLoss(empty, empty, Reduction.SUM).item());
    Tensor none = Tensor.zeros(0, 4), noLabels = Tensor.zeros(new long[] {0, 4}, DType.INT64);
    assertEquals(0.0, Functional.multilabelMarginLoss(none, noLabels, Reduction.MEAN).item(), "PyTorch's 0");
    assertArrayEquals(new long[] {0}, Functional.multiMarginLoss(none, Tensor.zeros(new long[] {0}, DType.INT64), 1, 1, null, Reduction.NONE).shape());
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(want, e.getMessage());
  }
}
