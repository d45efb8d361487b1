package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a PyTorch transformer user reaches for beyond the layers, against PyTorch 2.13
 * (resources/transformer/fixtures.pt, written by make_fixtures.py beside it): MultiheadAttention's kdim/vdim, bias_k/bias_v, add_zero_attn and
 * attention weights (need_weights=True, averaged and per head, with their gradients);
 * TransformerDecoderLayer's key padding masks and bias=False; TransformerDecoder; nn.Transformer and
 * generate_square_subsequent_mask; and PyTorch's refusal of an is_causal hint without its mask.
 */
class TransformerStackConformanceTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fx = new PtFixture("/transformer/fixtures.pt");

  private static Tensor f(String name) {
    return fx.tensor(name);
  }

  private static void near(Tensor want, Tensor got, double tol, String what) {
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), tol, what);
  }

  @Test
  void separateProjectionsBiasKvAndZeroAttentionMatchPyTorch() {
    try (MultiheadAttention mha = new MultiheadAttention(16, 4, 0.0, true, true, true, 5, 3, false, new Generator(1))) {
      assertEquals(List.of("q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
          "out_proj.bias"), List.copyOf(mha.stateDict().keySet()), "PyTorch's names, in its order");
      fx.loadInto(mha, "sep");
      MultiheadAttention.Output avg = mha.forwardWithWeights(f("sep.q"), f("sep.k"), f("sep.v"), f("mha.key_padding_mask"), f("mha.attn_mask"),
          true, false);
      near(f("sep.out"), avg.output(), 1e-5, "output");
      near(f("sep.weights"), avg.weights(), 1e-6, "weights averaged over the heads, two keys more than given");
      MultiheadAttention.Output heads = mha.forwardWithWeights(f("sep.q"), f("sep.k"), f("sep.v"), f("mha.key_padding_mask"),
          f("mha.attn_mask"), false, false);
      near(f("sep.weights_heads"), heads.weights(), 1e-6, "weights per head");
      Tensor fused = mha.forward(f("sep.q"), f("sep.k"), f("sep.v"), f("mha.key_padding_mask"), f("mha.attn_mask"), false);
      near(f("sep.out"), fused, 1e-5, "the fused path (need_weights=False)");
    }
  }

  @Test
  void unbatchedWeightsMatchPyTorch() {
    try (MultiheadAttention mha = new MultiheadAttention(16, 4)) {
      fx.loadInto(mha, "mha");
      MultiheadAttention.Output r = mha.forwardWithWeights(f("mha.q").select(1, 0), f("mha.k").select(1, 0), f("mha.v").select(1, 0), null,
          f("mha.float_mask_one"), true, false);
      near(f("mha.out_unbatched"), r.output(), 1e-5, "output");
      near(f("mha.weights_unbatched"), r.weights(), 1e-6, "weights [L, S]");
    }
  }

  @Test
  void weightsPathGradientsMatchPyTorch() {
    try (MultiheadAttention mha = new MultiheadAttention(16, 4, 0.0, true, true, false, 5, 3, true, new Generator(2))) {
      fx.loadInto(mha, "gsep");
      mha.train();
      MultiheadAttention.Output r = mha.forwardWithWeights(f("gsep.q"), f("gsep.k"), f("gsep.v"), null, f("gsep.mask"), true, false);
      near(f("gsep.out"), r.output(), 1e-5, "output");
      near(f("gsep.weights"), r.weights(), 1e-6, "weights");
      r.output().mul(f("gsep.up")).sum().add(r.weights().mul(r.weights()).sum()).backward();
      Map<String, Tensor> params = mha.namedParameters();
      assertEquals(8, params.size());
      for (Map.Entry<String, Tensor> p : params.entrySet()) {
        near(f("gsep.grad_" + p.getKey().replace('.', '_')), p.getValue().grad(), 1e-5, p.getKey() + "'s gradient");
      }
    }
  }

  @Test
  void decoderLayerWithPaddingMasksAndNoBiasMatchesPyTorch() {
    try (TransformerDecoderLayer dec = new TransformerDecoderLayer(16, 4, 32, 0.1, "gelu", 1e-5, false, true, false, new Generator(3))) {
      assertFalse(dec.stateDict().keySet().stream().anyMatch(k -> k.endsWith("bias")), "bias=False: no bias anywhere");
      fx.loadInto(dec, "dec2");
      Tensor out = dec.forward(f("dec2.tgt"), f("dec2.memory"), f("dec.tgt_mask"), null, f("dec2.tgt_key_padding_mask"),
          f("dec2.memory_key_padding_mask"), true, false);
      near(f("dec2.out"), out, 1e-5, "norm first, gelu, both padding masks");
    }
  }

  @Test
  void transformerMatchesPyTorch() {
    try (Transformer model = new Transformer(16, 4, 2, 2, 32, 0.1, "relu", 1e-5, true, false, true, new Generator(4))) {
      assertEquals(fx.under("model").keySet().stream().filter(k -> k.startsWith("encoder.") || k.startsWith("decoder.")).toList(),
          List.copyOf(model.stateDict().keySet()), "PyTorch's state-dict names, in its order");
      fx.loadInto(model, "model");
      try (Tensor mask = Transformer.generateSquareSubsequentMask(5)) {
        assertArrayEquals(f("model.square_mask").toDoubleArray(), mask.toDoubleArray(), 0);
        assertEquals(DType.FLOAT32, mask.dtype());
      }
      Tensor out = model.forward(f("model.src"), f("model.tgt"), null, f("dec.tgt_mask"), null, f("mha.key_padding_mask"), null,
          f("mha.key_padding_mask"), false, true, false);
      near(f("model.out"), out, 1e-5, "two encoder and two decoder layers, padding masks, causal target");
    }
  }

  @Test
  void decoderStackIsItsLayersThenTheNorm() {
    Generator g = new Generator(5);
    try (TransformerDecoder dec = new TransformerDecoder(() -> new TransformerDecoderLayer(16, 4, 32, 0.0, "relu", 1e-5, true, false, g), 2,
        new LayerNorm(16)); LayerNorm norm = new LayerNorm(16)) {
      dec.eval();
      Tensor tgt = Tensor.randn(new long[] {2, 5, 16}, g), memory = Tensor.randn(new long[] {2, 7, 16}, g);
      Tensor x = tgt;
      for (TransformerDecoderLayer l : dec.layers()) x = l.forward(x, memory);
      Tensor want = norm.forward(x);
      near(want, dec.forward(tgt, memory), 1e-6, "layers in turn, then the norm");
      assertTrue(dec.stateDict().containsKey("layers.1.multihead_attn.in_proj_weight") && dec.stateDict().containsKey("norm.weight"));
      assertThrows(UnsupportedOperationException.class, () -> dec.forward(tgt), "a decoder needs the memory");
      String m = assertThrows(IllegalArgumentException.class, () -> dec.forward(tgt, memory, null, null, null, null, true, false)).getMessage();
      assertTrue(m.startsWith("TransformerDecoder.forward(): Need attn_mask if specifying the is_causal hint"), m);
      String same = assertThrows(IllegalArgumentException.class, () -> new TransformerDecoder(() -> dec.layers().get(0), 2, null)).getMessage();
      assertTrue(same.contains("the layer supplier returned the same layer for layers 0 and 1"), same);
    }
  }

  @Test
  void causalHintWithoutItsMaskIsRefusedAsPyTorchRefusesIt() {
    try (MultiheadAttention mha = new MultiheadAttention(8, 2); Transformer model = new Transformer(8, 2, 1, 1, 16, 0.0, "relu", 1e-5, false,
        false, true, new Generator(6))) {
      Tensor x = Tensor.ones(3, 2, 8);
      for (Runnable call : List.<Runnable>of(() -> mha.forward(x, x, x, null, null, true),
          () -> mha.forwardWithWeights(x, x, x, null, null, true, true), () -> model.forward(x, x, null, null, null, null, null, null, true,
              false, false), () -> model.forward(x, x, null, null, null, null, null, null, false, true, false))) {
        String m = assertThrows(IllegalArgumentException.class, call::run).getMessage();
        assertTrue(m.contains("(): Need attn_mask if specifying the is_causal hint"), m);
      }
      assertThrows(UnsupportedOperationException.class, () -> model.forward(x));
      String m = assertThrows(IllegalArgumentException.class, () -> model.forward(x, Tensor.ones(3, 4, 8))).getMessage();
      assertTrue(m.startsWith("Transformer.forward(): the batch number of src and tgt must be equal"), m);
      m = assertThrows(IllegalArgumentException.class, () -> model.forward(x, Tensor.ones(3, 2, 6))).getMessage();
      assertTrue(m.startsWith("Transformer.forward(): the feature number of src and tgt must be equal to d_model"), m);
    }
  }

  @Test
  void refusedConstructionLeavesNothingAllocated() {
    // a layer refused inside the stacks (here: heads that do not divide the model) must close what was made before it
    assertThrows(IllegalArgumentException.class, () -> new Transformer(10, 3, 2, 2, 16, 0.0, "relu", 1e-5, false, false, true, new Generator(7)));
    assertThrows(IllegalArgumentException.class, () -> new Transformer(8, 2, 2, 2, 16, 0.0, "tanh", 1e-5, false, false, true, new Generator(7)));
    String m = assertThrows(IllegalArgumentException.class, () -> new MultiheadAttention(8, 2, 0.0, true, false, false, 0, 3, false,
        new Generator(8))).getMessage();
    assertTrue(m.contains("kdim and vdim must be greater than 0"), m);
    try (MultiheadAttention mha = new MultiheadAttention(8, 2, 0.0, false, false, false, 5, 3, false, new Generator(9))) {
      assertNull(mha.stateDict().get("in_proj_bias"));
      m = assertThrows(IllegalArgumentException.class, () -> mha.forward(Tensor.ones(3, 2, 8), Tensor.ones(4, 2, 8), Tensor.ones(4, 2, 3),
          null)).getMessage();
      assertTrue(m.contains("kdim 5, vdim 3"), m);
    }
  }
}
