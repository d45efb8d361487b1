package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.jtensor.nn.EmbeddingBag;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * nn.EmbeddingBag and Functional.embeddingBag against PyTorch 2.13 (resources/embeddingbag/
 * fixtures.pt from make_fixtures.py beside it): modes sum, mean and max over 2-D inputs and 1-D
 * inputs with offsets (an empty bag, a bag of padding only, include_last_offset), padding_idx,
 * per_sample_weights and max_norm (the weight renormed in place), values and float64 gradients,
 * max's gradient going to the first of tied rows; a module loaded from PyTorch's state dict; the
 * refusals.
 */
class EmbeddingBagTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/embeddingbag/fixtures.pt");

  private static Tensor opt(String name) {
    return fixtures.has(name) ? fixtures.tensor(name) : null;
  }

  @Test
  void valuesAndGradientsMatchPyTorch() {
    List<?> cases = (List<?>) fixtures.get("cases");
    assertEquals(24, cases.size());
    for (Object o : cases) {
      List<?> c = (List<?>) o;
      String name = (String) c.get(0), mode = (String) c.get(1);
      boolean last = (Boolean) c.get(2);
      Long pad = c.get(3) == null ? null : ((Number) c.get(3)).longValue();
      Double maxNorm = c.get(4) == null ? null : ((Number) c.get(4)).doubleValue();
      Tensor w = fixtures.tensor(name + ".weight").clone().requiresGrad_();
      Tensor psw = opt(name + ".psw") == null ? null : fixtures.tensor(name + ".psw").clone().requiresGrad_();
      Tensor out = Functional.embeddingBag(fixtures.tensor(name + ".input"), w, opt(name + ".offsets"), maxNorm, 2.0, mode, psw, last, pad);
      Goldens.assertMatches(fixtures.tensor(name + ".out"), out.detach(), name);
      out.mul(fixtures.tensor(name + ".up")).sum().backward();
      Goldens.assertMatches(fixtures.tensor(name + ".grad_weight"), w.grad(), name + " grad weight");
      if (psw != null) Goldens.assertMatches(fixtures.tensor(name + ".grad_psw"), psw.grad(), name + " grad per-sample weights");
      if (maxNorm != null) Goldens.assertMatches(fixtures.tensor(name + ".renormed"), w.detach(), name + " renormed weight");
    }
  }

  @Test
  void aModuleLoadsPyTorchsStateDict() {
    try (EmbeddingBag bag = new EmbeddingBag(7, 3, null, 2.0, "max", false, 1L, new Generator(3))) {
      assertEquals(List.of("weight"), List.copyOf(bag.stateDict().keySet()));
      fixtures.loadInto(bag, "module");
      Goldens.assertMatches(fixtures.tensor("module.out"), bag.forward(fixtures.tensor("module.input"), fixtures.tensor("module.offsets")),
          "module");
    }
  }

  @Test
  void aNewModuleHasAZeroPaddingRowAndMeanMode() {
    try (EmbeddingBag bag = new EmbeddingBag(5, 2, null, 2.0, "sum", false, -2L, new Generator(1)); EmbeddingBag plain = new EmbeddingBag(3, 2)) {
      assertEquals(3L, bag.paddingIdx());
      assertArrayEquals(new float[] {0, 0}, bag.weight().select(0, 3).toFloatArray());
      assertEquals("mean", plain.mode());
    }
  }

  @Test
  void sumAndMeanPassGradCheck() {
    for (String mode : List.of("sum", "mean", "max")) {
      Tensor w = Tensor.randn(new long[] {5, 3}, DType.FLOAT64, new Generator(9)).requiresGrad_();
      Tensor psw = Tensor.fromArray(new double[] {0.5, -1.5, 2.0, 1.25, -0.75}).requiresGrad_();
      GradCheck.check(x -> Functional.embeddingBag(Tensor.fromArray(new long[] {4, 0, 2, 2, 1}), x.get(0),
          Tensor.fromArray(new long[] {0, 2, 2}), null, 2.0, mode, "sum".equals(mode) ? x.get(1) : null, false, 0L).add(x.get(1).sum()),
          List.of(w, psw));
    }
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor w = Tensor.randn(new long[] {6, 3}, DType.FLOAT64, new Generator(2));
    Tensor in = Tensor.fromArray(new long[] {1, 2, 4, 5});
    Tensor off = Tensor.fromArray(new long[] {0, 2});
    Goldens.refused("embeddingBag(): offsets[0] has to be 0", () -> Functional.embeddingBag(in, w, Tensor.fromArray(new long[] {1, 3}),
        null, 2, "sum", null, false, null));
    Goldens.refused("embeddingBag(): offsets[-1] can not be greater than input's length 4 but got offsets[-1] of 9",
        () -> Functional.embeddingBag(in, w, Tensor.fromArray(new long[] {0, 9}), null, 2, "sum", null, false, null));
    Goldens.refused("embeddingBag(): offsets must be non-decreasing", () -> Functional.embeddingBag(in, w,
        Tensor.fromArray(new long[] {0, 3, 2}), null, 2, "sum", null, false, null));
    Goldens.refused("offsets[-1] must be the input's length 4, got 3", () -> Functional.embeddingBag(in, w,
        Tensor.fromArray(new long[] {0, 3}), null, 2, "sum", null, true, null));
    Goldens.refused("offsets has to be a 1D Tensor but got None", () -> Functional.embeddingBag(in, w, null, null, 2, "sum", null, false, null));
    Goldens.refused("if input is 2D, then offsets has to be None", () -> Functional.embeddingBag(in.view(2, 2), w, off, null, 2, "sum", null,
        false, null));
    Goldens.refused("input has to be 1D or 2D Tensor, but got Tensor of dimension 3", () -> Functional.embeddingBag(in.view(1, 2, 2), w, null,
        null, 2, "max", null, false, null));
    Goldens.refused("per_sample_weights is only supported for mode='sum' (got mode='mean')", () -> Functional.embeddingBag(in, w, off, null, 2,
        "mean", Tensor.ones(new long[] {4}, DType.FLOAT64), false, null));
    Goldens.refused("then it must have the same shape as the input", () -> Functional.embeddingBag(in, w, off, null, 2, "sum",
        Tensor.ones(new long[] {3}, DType.FLOAT64), false, null));
    Goldens.refused("mode has to be one of sum, mean or max", () -> Functional.embeddingBag(in, w, off, null, 2, "foo", null, false, null));
    Goldens.refused("padding_idx must be within the number of embeddings, -6 through 5, but got 6",
        () -> Functional.embeddingBag(in, w, off, null, 2, "sum", null, false, 6L));
    Goldens.refused("'weight' to have one of the following scalar types: Half, BFloat16, Float, Double",
        () -> Functional.embeddingBag(in, w.to(DType.INT64), off, null, 2, "sum", null, false, null));
    Goldens.refused("'input' to have one of the following scalar types: Long, Int", () -> Functional.embeddingBag(in.to(DType.FLOAT32), w, off,
        null, 2, "sum", null, false, null));
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> Functional.embeddingBag(Tensor.fromArray(new long[] {1, -1}),
        w, off, null, 2, "sum", null, false, null));
    assertEquals("embeddingBag(): Expected idx >= 0 && idx < num_embeddings but found idx to be -1", e.getMessage());
    Goldens.refused("EmbeddingBag(): mode has to be one of sum, mean or max, got avg", () -> new EmbeddingBag(3, 2, "avg"));
  }

  @Test
  void noBagsGiveAnEmptyResult() {
    Tensor w = Tensor.randn(new long[] {4, 2}, DType.FLOAT32, new Generator(5));
    Tensor none = Tensor.zeros(new long[] {0}, DType.INT64);
    assertArrayEquals(new long[] {0, 2}, Functional.embeddingBag(none, w, Tensor.fromArray(new long[] {0}), null, 2, "max", null, true, null).shape());
    assertArrayEquals(new long[] {0, 2}, Functional.embeddingBag(Tensor.fromArray(new long[] {1, 2}), w, none, null, 2, "sum", null, false, null)
        .shape());
  }
}
