package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * torch.nn's loss modules against PyTorch 2.13 (resources/lossmodules/, from make_fixtures.py
 * beside them): each built with non-default arguments, its value and every input's gradient, its
 * state_dict key for key; a CrossEntropyLoss state dict saved by torch.save loaded into one; the refusals.
 */
class LossModulesTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/lossmodules/fixtures.pt");

  /** Each case's module from PyTorch's state dict of it (its weight buffers, when it has them). */
  private static final Map<String, Function<Map<String, Tensor>, Loss>> MODULES = Map.ofEntries(
      Map.entry("l1_sum", sd -> new L1Loss("sum")),
      Map.entry("mse_none", sd -> new MSELoss("none")),
      Map.entry("huber_delta", sd -> new HuberLoss("sum", 0.7)),
      Map.entry("smooth_l1_beta", sd -> new SmoothL1Loss("none", 0.5)),
      Map.entry("ce_all", sd -> new CrossEntropyLoss(sd.get("weight"), 3, "mean", 0.1)),
      Map.entry("ce_none_spatial", sd -> new CrossEntropyLoss(null, 0, "none", 0.0)),
      Map.entry("ce_probs", sd -> new CrossEntropyLoss(sd.get("weight"), -100, "mean", 0.2)),
      Map.entry("nll_weight_ignore", sd -> new NLLLoss(sd.get("weight"), 1, "mean")),
      Map.entry("nll_weight_none", sd -> new NLLLoss(sd.get("weight"), -100, "none")),
      Map.entry("nll_sum", sd -> new NLLLoss(null, -100, "sum")),
      Map.entry("bce_weight", sd -> new BCELoss(sd.get("weight"), "sum")),
      Map.entry("bce_weight_rows_none", sd -> new BCELoss(sd.get("weight"), "none")),
      Map.entry("bce_logits_pos_weight", sd -> new BCEWithLogitsLoss(null, "mean", sd.get("pos_weight"))),
      Map.entry("bce_logits_both_none", sd -> new BCEWithLogitsLoss(sd.get("weight"), "none", sd.get("pos_weight"))),
      Map.entry("bce_logits_weight_sum", sd -> new BCEWithLogitsLoss(sd.get("weight"), "sum", null)),
      Map.entry("kl_batchmean", sd -> new KLDivLoss("batchmean", false)),
      Map.entry("kl_log_target_sum", sd -> new KLDivLoss("sum", true)),
      Map.entry("kl_mean_none", sd -> new KLDivLoss("none", false)),
      Map.entry("poisson_rate_full", sd -> new PoissonNLLLoss(false, true, 1e-4, "sum")),
      Map.entry("poisson_none", sd -> new PoissonNLLLoss(true, false, 1e-8, "none")),
      Map.entry("gaussian_full", sd -> new GaussianNLLLoss(true, 1e-3, "sum")),
      Map.entry("gaussian_short_var_none", sd -> new GaussianNLLLoss(false, 1e-6, "none")),
      Map.entry("margin_ranking", sd -> new MarginRankingLoss(0.4, "sum")),
      Map.entry("hinge", sd -> new HingeEmbeddingLoss(0.8, "none")),
      Map.entry("soft_margin", sd -> new SoftMarginLoss("sum")),
      Map.entry("multilabel_soft_margin", sd -> new MultiLabelSoftMarginLoss(sd.get("weight"), "none")),
      Map.entry("cosine", sd -> new CosineEmbeddingLoss(0.2, "sum")),
      Map.entry("triplet", sd -> new TripletMarginLoss(0.5, 1.0, 1e-4, true, "none")),
      Map.entry("multi_margin", sd -> new MultiMarginLoss(2, 0.6, sd.get("weight"), "sum")),
      Map.entry("multilabel_margin", sd -> new MultiLabelMarginLoss("none")));

  /** forward with the case's inputs: two, or the three of the losses that take three. */
  private static Tensor call(Loss loss, List<Tensor> in) {
    return in.size() == 2 ? loss.forward(in.get(0), in.get(1)) : ((ThreeInputLoss) loss).forward(in.get(0), in.get(1), in.get(2));
  }

  @Test
  void everyModuleMatchesPyTorchInValueGradientAndStateDict() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(MODULES.size(), cases.size());
    for (int i = 0; i < cases.size(); i++) {
      String name = (String) cases.get(i);
      assertNotNull(MODULES.get(name), name + ": no module for this case");
      Map<String, Tensor> torchState = fixtures.under(i + ".sd");
      try (Loss loss = MODULES.get(name).apply(torchState)) {
        Map<String, Tensor> state = loss.stateDict();
        assertEquals(List.copyOf(torchState.keySet()), List.copyOf(state.keySet()), name + ": state_dict keys");
        state.forEach((k, t) -> Close.assertTensor(name + ": state " + k, torchState.get(k), t, 0));
        List<Tensor> in = new ArrayList<>();
        for (int k = 0; fixtures.has(i + ".in" + k); k++) in.add(fixtures.tensor(i + ".in" + k).clone().requiresGrad_(fixtures.has(i + ".grad" + k)));
        Tensor out = call(loss, in);
        Close.assertTensor(name + ": values", fixtures.tensor(i + ".out"), out, 1e-12);
        out.mul(fixtures.tensor(i + ".up")).sum().backward();
        for (int k = 0; k < in.size(); k++) {
          if (fixtures.has(i + ".grad" + k)) Close.assertTensor(name + ": input " + k + "'s gradient", fixtures.tensor(i + ".grad" + k), in.get(k).grad(), 1e-12);
        }
      }
    }
  }

  @Test
  void aCrossEntropyStateDictSavedByPyTorchLoadsIntoTheModule() throws Exception {
    Map<String, Tensor> saved = Tensors.load(resource("ce_state.pt"));
    Map<String, Tensor> io = Tensors.load(resource("ce_io.pt"));
    try (CrossEntropyLoss ce = new CrossEntropyLoss(Tensor.ones(4), -100, "mean", 0.05);
         CrossEntropyLoss unweighted = new CrossEntropyLoss()) {
      ce.loadStateDict(saved);
      Close.assertTensor("loaded weight", saved.get("weight"), ce.weight(), 0);
      Close.assertTensor("loss with the loaded weight", io.get("out"), ce.forward(io.get("x"), io.get("t")), 1e-6);
      // PyTorch's CrossEntropyLoss() registers weight as None: the saved weight is an unexpected key
      RuntimeException e = assertThrows(RuntimeException.class, () -> unweighted.loadStateDict(saved));
      assertTrue(e.getMessage().contains("Unexpected key(s) in state_dict: \"weight\""), e.getMessage());
      assertTrue(unweighted.stateDict().isEmpty());
    } finally {
      Tensors.closeAll(saved);
      Tensors.closeAll(io);
    }
  }

  private static Path resource(String name) throws Exception {
    return Path.of(LossModulesTest.class.getResource("/lossmodules/" + name).toURI());
  }

  @Test
  void weightsAreBuffersTheModuleMovesAndCloses() {
    Tensor w = Tensor.fromArray(new double[] {1, 2, 3}), pw = Tensor.fromArray(new double[] {0.5, 1, 4});
    BCEWithLogitsLoss loss = new BCEWithLogitsLoss(w, "sum", pw);
    try {
      assertEquals(List.of("weight", "pos_weight"), List.copyOf(loss.namedBuffers().keySet()));
      assertTrue(loss.parameters().isEmpty(), "a loss has no parameters");
      assertEquals("sum", loss.reduction());
      w.mul_(2.0);  // the module's buffer shares the weight's storage, as PyTorch's register_buffer
      assertEquals(6.0, loss.weight().select(0, 2).item());
      Tensor held = loss.posWeight();
      assertSame(loss, loss.to(Device.META));
      assertSame(held, loss.posWeight());
      assertEquals(Device.META, loss.weight().device());
      assertEquals(Device.META, loss.posWeight().device());
    } finally {
      loss.close();
    }
    assertEquals(2.0, w.select(0, 0).item(), "closing the module leaves the caller's weight alive");
    assertThrows(IllegalStateException.class, loss::stateDict);
  }

  @Test
  void aGaussianNllTakesOneVarianceForAllAndKlDefaultsToMean() {
    Tensor mu = Tensor.fromArray(new double[] {0.5, -1, 2}), obs = Tensor.fromArray(new double[] {0, 1, 1.5});
    try (GaussianNLLLoss g = new GaussianNLLLoss(); KLDivLoss kl = new KLDivLoss()) {
      // F.gaussian_nll_loss(mu, obs, 0.25) is 2.30685281944 (PyTorch 2.13)
      Close.assertTensor("float var", g.forward(mu, obs, Tensor.fullLike(mu, 0.25)), g.forward(mu, obs, 0.25), 0);
      assertTrue(Close.within(g.forward(mu, obs, 0.25).item(), 2.3068528194400546, 1e-12));
      assertThrows(IllegalArgumentException.class, () -> g.forward(mu, obs, -1.0));
      assertNull(g.namedBuffers().get("weight"));
      assertEquals("mean", kl.reduction());
      Tensor logq = mu.logSoftmax(0), p = obs.softmax(0);
      Close.assertTensor("KLDivLoss() is 'mean'", Functional.klDiv(logq, p, Reduction.MEAN, false, false), kl.forward(logq, p), 0);
    }
  }

  @Test
  void refusalsNameTheModuleAndTheRule() {
    Tensor x = Tensor.randn(2, 3);
    try (L1Loss l1 = new L1Loss(); TripletMarginLoss triplet = new TripletMarginLoss(); CosineEmbeddingLoss cos = new CosineEmbeddingLoss()) {
      assertMessage("MSELoss takes two inputs: call forward(input, target)", assertThrows(UnsupportedOperationException.class, () -> new MSELoss().forward(x)));
      assertMessage("L1Loss takes two inputs: call forward(input, target)", assertThrows(UnsupportedOperationException.class, () -> l1.forward(x)));
      assertMessage("TripletMarginLoss takes three inputs: call forward(anchor, positive, negative)",
          assertThrows(UnsupportedOperationException.class, () -> triplet.forward(x, x)));
      assertMessage("CosineEmbeddingLoss takes three inputs: call forward(input1, input2, target)",
          assertThrows(UnsupportedOperationException.class, () -> cos.forward(x)));
    }
    assertMessage("L1Loss(): foo is not a valid value for reduction", assertThrows(IllegalArgumentException.class, () -> new L1Loss("foo")));
    assertMessage("CrossEntropyLoss(): batchmean is not a valid value for reduction",
        assertThrows(IllegalArgumentException.class, () -> new CrossEntropyLoss(null, -100, "batchmean", 0)));
    assertMessage("KLDivLoss(): null is not a valid value for reduction", assertThrows(IllegalArgumentException.class, () -> new KLDivLoss(null, false)));
    assertMessage("MultiMarginLoss(): only p == 1 and p == 2 supported",
        assertThrows(IllegalArgumentException.class, () -> new MultiMarginLoss(3, 1, null, "mean")));
    assertMessage("MultiMarginLoss(): MultiMarginLoss: expected weight to be None or 1D tensor, got 2D instead",
        assertThrows(IllegalArgumentException.class, () -> new MultiMarginLoss(1, 1, Tensor.ones(2, 2), "mean")));
    assertMessage("TripletMarginLoss(): TripletMarginLoss: expected margin to be greater than 0, got 0.0 instead",
        assertThrows(IllegalArgumentException.class, () -> new TripletMarginLoss(0, 2, 1e-6, false, "mean")));
  }

  @Test
  void weightRefusalsAreTheFunctionalsInPyTorchsWords() {
    Tensor x = Tensor.randn(2, 3), t = Tensor.rand(2, 3), classes = Tensor.fromArray(new long[] {0, 2});
    try (BCEWithLogitsLoss growing = new BCEWithLogitsLoss(null, "mean", Tensor.ones(2, 1, 3));
         BCELoss wrongSize = new BCELoss(Tensor.ones(4), "mean");
         NLLLoss nll = new NLLLoss(Tensor.ones(4), -100, "mean");
         NLLLoss nllDouble = new NLLLoss(Tensor.ones(3).to(DType.FLOAT64), -100, "mean")) {
      assertMessage("binaryCrossEntropyWithLogits(): output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]",
          assertThrows(IllegalArgumentException.class, () -> growing.forward(x, t)));
      assertMessage("binaryCrossEntropy(): The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
          assertThrows(IllegalArgumentException.class, () -> wrongSize.forward(t, t)));
      assertMessage("nllLoss(): weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: [4]",
          assertThrows(IllegalArgumentException.class, () -> nll.forward(x, classes)));
      assertMessage("nllLoss(): expected scalar type Float but found Double", assertThrows(IllegalArgumentException.class, () -> nllDouble.forward(x, classes)));
    }
    Tensor trained = Tensor.ones(3).requiresGrad_(true);
    assertMessage("binaryCrossEntropyWithLogits(): The function 'binary_cross_entropy_with_logits' is not differentiable with respect to "
        + "argument 'pos_weight'. This input cannot have requires_grad True.",
        assertThrows(IllegalArgumentException.class, () -> Functional.binaryCrossEntropyWithLogits(x, t, null, trained, Reduction.MEAN)));
    assertMessage("binaryCrossEntropy(): The function 'binary_cross_entropy' is not differentiable with respect to argument 'weight'. "
        + "This input cannot have requires_grad True.",
        assertThrows(IllegalArgumentException.class, () -> Functional.binaryCrossEntropy(t, t, trained, Reduction.MEAN)));
    assertMessage("crossEntropy(): The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'. "
        + "This input cannot have requires_grad True.",
        assertThrows(IllegalArgumentException.class, () -> Functional.crossEntropy(x, classes, trained, -100, 0.1, Reduction.MEAN)));
  }

  private static void assertMessage(String want, Throwable e) {
    assertEquals(want, e.getMessage());
  }
}
