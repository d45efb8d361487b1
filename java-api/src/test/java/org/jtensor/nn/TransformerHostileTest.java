package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.CloseRace;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hostile review of MultiheadAttention's new arguments and the transformer stacks against PyTorch
 * 2.13 (resources/transformerhostile/fixtures.pt, written by make_fixtures.py beside it).
 */
class TransformerHostileTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/transformerhostile/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static MultiheadAttention loaded(MultiheadAttention m, String prefix) {
    return fixtures.loadInto(m, prefix);
  }

  private static void near(Tensor want, Tensor got, String what) {
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 1e-5, what);
  }

  @Test
  void isCausalHintMaskedTheBiasKvAndZeroKeysInTheWeightsPath() {
    try (MultiheadAttention m = loaded(new MultiheadAttention(8, 2, 0.0, true, true, true, 8, 8, false, new Generator(1)), "cz")) {
      Tensor q = f("cz.q");
      MultiheadAttention.Output r = m.forwardWithWeights(q, q, q, null, f("cz.causal"), true, true);
      near(f("cz.out_weights_path"), r.output(), "need_weights=True: PyTorch uses the mask, its bias_k and zero keys open");
      near(f("cz.weights"), r.weights(), "weights");
      near(f("cz.out_kpm"), m.forward(q, q, q, f("cz.kpm"), f("cz.causal"), true), "with a key_padding_mask PyTorch drops the hint");
      near(f("cz.out_fused"), m.forward(q, q, q, null, f("cz.causal"), true), "need_weights=False: the causal mask over every key");
    }
  }

  @Test
  void isCausalHintBesideANonCausalMaskAppliedBoth() {
    try (MultiheadAttention m = loaded(new MultiheadAttention(8, 2), "nc")) {
      Tensor q = f("cz.q");
      MultiheadAttention.Output r = m.forwardWithWeights(q, q, q, null, f("nc.bias"), true, true);
      near(f("nc.out_weights_path"), r.output(), "need_weights=True: the mask alone");
      near(f("nc.weights"), r.weights(), "weights");
      near(f("nc.out_fused"), m.forward(q, q, q, null, f("nc.bias"), true), "need_weights=False: the causal mask alone");
    }
  }

  @Test
  void everyKeyMaskedMatchesPyTorch() {
    try (MultiheadAttention m = loaded(new MultiheadAttention(8, 2), "nc")) {
      Tensor q = f("cz.q");
      MultiheadAttention.Output r = m.forwardWithWeights(q, q, q, f("nc.every"), null, true, false);
      near(f("nc.every_out_weights_path"), r.output(), "need_weights=True: NaN where every key is masked");
      near(f("nc.every_weights"), r.weights(), "weights");
      near(f("nc.every_out_fused"), m.forward(q, q, q, f("nc.every"), null, false), "need_weights=False: zeros, then out_proj");
    }
  }

  @Test
  void dropoutOneInTrainingLeavesOnlyTheOutputBias() {
    // PyTorch: dropout=1.0 zeroes every weight on both paths, so the output is out_proj.bias everywhere
    try (MultiheadAttention m = new MultiheadAttention(8, 2, 1.0, true, false, new Generator(4))) {
      try (GradMode.Scope off = GradMode.noGrad()) {
        m.outProj().bias().fill_(0.5);
      }
      Tensor q = Tensor.randn(new long[] {4, 2, 8}, new Generator(5)), want = Tensor.full(new long[] {4, 2, 8}, 0.5, DType.FLOAT32);
      near(want, m.forward(q, q, q, null, null, false), "need_weights=False");
      MultiheadAttention.Output r = m.forwardWithWeights(q, q, q, null, null, true, false);
      near(want, r.output(), "need_weights=True");
      near(Tensor.zeros(new long[] {2, 4, 4}, DType.FLOAT32), r.weights(), "weights");
    }
  }

  @Test
  void closingAParameterWhileAnotherThreadAttendsEndsRightOrRefused() throws InterruptedException {
    MultiheadAttention m = new MultiheadAttention(8, 2, 0.0, true, true, true, 8, 8, false, new Generator(6));
    try (m) {
      m.eval();
      Tensor q = Tensor.randn(new long[] {6, 3, 8}, new Generator(7));
      double[] want = m.forwardWithWeights(q, q, q, null, null, true, false).output().toDoubleArray();
      CloseRace.closeDuring(() -> assertArrayEquals(want, m.forwardWithWeights(q, q, q, null, null, true, false).output().toDoubleArray(), 1e-6),
          m.namedParameters().get("bias_v"), 20, 200_000, 5000, 3, "bias_v closed during forwardWithWeights");
    }
  }

  @Test
  void zeroAttentionAndPerHeadMaskGradientsMatchPyTorch() {
    try (MultiheadAttention m = new MultiheadAttention(8, 2, 0.0, true, true, true, 8, 8, true, new Generator(8))) {
      Map<String, Tensor> own = new LinkedHashMap<>();
      for (String k : m.stateDict().keySet()) own.put(k, f("gz." + k));
      m.loadStateDict(own);
      Tensor q = f("gz.q").detach().requiresGrad_(), k = f("gz.k").detach().requiresGrad_(), v = f("gz.v").detach().requiresGrad_();
      MultiheadAttention.Output r = m.forwardWithWeights(q, k, v, f("gz.kpm"), f("gz.mask3"), false, false);
      near(f("gz.out"), r.output(), "output");
      near(f("gz.weights"), r.weights(), "weights per head");
      r.output().mul(f("gz.up")).sum().add(r.weights().mul(r.weights()).sum()).backward();
      near(f("gz.grad_q"), q.grad(), "grad query");
      near(f("gz.grad_k"), k.grad(), "grad key");
      near(f("gz.grad_v"), v.grad(), "grad value");
      for (Map.Entry<String, Tensor> e : m.namedParameters().entrySet()) near(f("gz.grad_" + e.getKey()), e.getValue().grad(), "grad " + e.getKey());
    }
  }

  @Test
  void noKeysGiveTheOutputBias() {
    // PyTorch: key and value [0, 3, 8] give out_proj.bias everywhere (both paths) and weights [3, 4, 0]
    try (MultiheadAttention m = new MultiheadAttention(8, 2)) {
      m.eval();
      try (GradMode.Scope off = GradMode.noGrad()) {
        m.outProj().bias().fill_(0.25);
      }
      Tensor q = Tensor.randn(new long[] {4, 3, 8}, new Generator(9)), none = Tensor.zeros(new long[] {0, 3, 8}, DType.FLOAT32);
      Tensor want = Tensor.full(new long[] {4, 3, 8}, 0.25, DType.FLOAT32);
      near(want, m.forward(q, none, none, null, null, false), "need_weights=False");
      MultiheadAttention.Output r = m.forwardWithWeights(q, none, none, null, null, true, false);
      near(want, r.output(), "need_weights=True");
      assertArrayEquals(new long[] {3, 4, 0}, r.weights().shape(), "weights");
    }
  }

  @Test
  void weightsDropoutInTrainingKeepsHalfScaledByTwo() {
    // PyTorch's need_weights path: softmax, then dropout(p) on the weights it returns: each 0 or w / (1 - p)
    try (MultiheadAttention m = new MultiheadAttention(16, 2, 0.5, true, false, new Generator(10))) {
      Tensor q = Tensor.randn(new long[] {64, 2, 16}, new Generator(11));
      m.eval();
      double[] eval = m.forwardWithWeights(q, q, q, null, null, false, false).weights().toDoubleArray();
      m.train();
      double[] train = m.forwardWithWeights(q, q, q, null, null, false, false).weights().toDoubleArray();
      int zeros = 0;
      for (int i = 0; i < eval.length; i++) {
        if (train[i] == 0) zeros++;
        else assertTrue(Math.abs(train[i] - 2 * eval[i]) < 1e-6, "kept weight " + i + " scaled by 1/(1 - p)");
      }
      double dropped = zeros / (double) eval.length;
      assertTrue(dropped > 0.45 && dropped < 0.55, "about half dropped, got " + dropped);
    }
  }

  @Test
  void transformerWithoutBiasStateDictMatchesPyTorch() {
    try (Transformer t = new Transformer(8, 2, 2, 1, 16, 0.0, "relu", 1e-5, false, true, false, new Generator(12))) {
      int i = 0;
      for (Map.Entry<String, Tensor> e : t.stateDict().entrySet()) {
        assertTrue(fixtures.has("tborder." + e.getKey()), "PyTorch has no " + e.getKey());
        assertEquals(i++, (int) f("tborder." + e.getKey()).item(), "PyTorch's place of " + e.getKey());
        assertArrayEquals(f("tb." + e.getKey()).shape(), e.getValue().shape(), e.getKey());
      }
      assertEquals((int) f("tborder").item(), i, "as many entries as PyTorch's");
    }
  }

  @Test
  void nullInputsThrewNullPointerException() {
    Tensor x = Tensor.ones(3, 1, 8);
    try (MultiheadAttention m = new MultiheadAttention(8, 2)) {
      for (Tensor[] qkv : new Tensor[][] {{null, x, x}, {x, null, x}, {x, x, null}}) {
        String a = assertThrows(IllegalArgumentException.class, () -> m.forward(qkv[0], qkv[1], qkv[2], null, null, false)).getMessage();
        assertTrue(a.contains("MultiheadAttention.forward(): query, key and value are required, got null"), a);
        String b = assertThrows(IllegalArgumentException.class, () -> m.forwardWithWeights(qkv[0], qkv[1], qkv[2], null, null, true, false))
            .getMessage();
        assertTrue(b.contains("MultiheadAttention.forward(): query, key and value are required"), b);
      }
    }
    try (Transformer t = new Transformer(8, 2, 1, 1, 16, 0.0, "relu", 1e-5, false, false, true, new Generator(2))) {
      String a = assertThrows(IllegalArgumentException.class, () -> t.forward(null, x)).getMessage();
      assertTrue(a.contains("Transformer.forward(): src and tgt are required, got null"), a);
      String b = assertThrows(IllegalArgumentException.class, () -> t.forward(x, null)).getMessage();
      assertTrue(b.contains("Transformer.forward(): src and tgt are required, got null"), b);
    }
  }

  @Test
  void transformerRefusalsNamedMultiheadAttentionOrLayerNorm() {
    // PyTorch: ValueError "embed_dim and num_heads must be greater than 0, got embed_dim=-2 and num_heads=2 instead"
    String a = assertThrows(IllegalArgumentException.class,
        () -> new Transformer(-2, 2, 1, 1, 16, 0.0, "relu", 1e-5, false, false, true, new Generator(2))).getMessage();
    assertTrue(a.contains("Transformer(): embed_dim and num_heads must be greater than 0, got embed_dim=-2 and num_heads=2"), a);
    try (Transformer t = new Transformer(8, 2, 1, 1, 16, 0.0, "relu", 1e-5, false, false, true, new Generator(2))) {
      // PyTorch: a batched src [5, 3, 8] beside an unbatched tgt [4, 8]: "the batch number of src and tgt must be equal"
      String b = assertThrows(IllegalArgumentException.class, () -> t.forward(Tensor.ones(5, 3, 8), Tensor.ones(4, 8))).getMessage();
      assertTrue(b.contains("Transformer.forward(): the batch number of src and tgt must be equal"), b);
      Tensor src = Tensor.ones(5, 3, 8), tgt = Tensor.ones(4, 3, 8);
      // PyTorch: RuntimeError "Need attn_mask if specifying the is_causal hint. ..." (its MultiheadAttention's words)
      String c = assertThrows(IllegalArgumentException.class, () -> t.forward(src, tgt, null, null, null, null, null, null, true, false, false))
          .getMessage();
      assertTrue(c.contains("Transformer.forward(): Need attn_mask if specifying the is_causal hint"), c);
    }
  }

  @Test
  void layerNormWithoutAffineNormalizedAnyTrailingDim() {
    // PyTorch (either elementwise_affine): RuntimeError "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 5]"
    try (LayerNorm plain = new LayerNorm(new long[] {4}, 1e-5, false, true); LayerNorm affine = new LayerNorm(4);
         LayerNorm two = new LayerNorm(new long[] {2, 4}, 1e-5, false, false)) {
      for (LayerNorm m : new LayerNorm[] {plain, affine}) {
        String a = assertThrows(IllegalArgumentException.class, () -> m.forward(Tensor.ones(2, 5))).getMessage();
        assertTrue(a.contains("LayerNorm.forward(): Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 5]"), a);
      }
      String b = assertThrows(IllegalArgumentException.class, () -> two.forward(Tensor.ones(4))).getMessage();
      assertTrue(b.contains("Given normalized_shape=[2, 4], expected input with shape [*, 2, 4], but got input of size[4]"), b);
      near(Tensor.zeros(new long[] {3, 2, 4}, DType.FLOAT32), two.forward(Tensor.ones(3, 2, 4)), "the shape PyTorch takes still works");
    }
  }

  @Test
  void layerNormNullOrNegativeShapeNamedAnotherOp() {
    String a = assertThrows(IllegalArgumentException.class, () -> new LayerNorm((long[]) null)).getMessage();
    assertTrue(a.contains("LayerNorm(): expected a normalized_shape, got null"), a);
    // PyTorch: RuntimeError "Trying to create tensor with negative dimension -1: [-1]"
    String b = assertThrows(IllegalArgumentException.class, () -> new LayerNorm(new long[] {4, -1}, 1e-5, true, true)).getMessage();
    assertTrue(b.contains("LayerNorm(): Trying to create tensor with negative dimension -1: [4, -1]"), b);
  }
}
