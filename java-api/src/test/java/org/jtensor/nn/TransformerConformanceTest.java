package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The transformer modules against PyTorch 2.13 (resources/transformer/fixtures.pt, written by make_fixtures.py beside it): each module built with PyTorch's arguments, PyTorch's state_dict
 * loaded strictly (so the names and shapes are PyTorch's), eval mode, the same inputs, the outputs
 * compared; scaled_dot_product_attention's output and every input's gradient in float64.
 */
class TransformerConformanceTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/transformer/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static Map<String, Tensor> state(String prefix) {
    return fixtures.under(prefix);
  }

  private static void loadInto(Module m, String prefix) {
    fixtures.loadInto(m, prefix);
  }

  private static void close(Module m) {
    m.close();
  }

  @Test
  void multiheadAttentionMatchesPyTorch() {
    MultiheadAttention mha = new MultiheadAttention(16, 4);
    assertEquals(List.of("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"), List.copyOf(mha.stateDict().keySet()));
    loadInto(mha, "mha");
    Tensor out = mha.forward(f("mha.q"), f("mha.k"), f("mha.v"), f("mha.key_padding_mask"), f("mha.attn_mask"), false);
    assertArrayEquals(f("mha.out").toDoubleArray(), out.toDoubleArray(), 1e-5, "bool masks");
    Tensor floatMask = mha.forward(f("mha.q"), f("mha.k"), f("mha.v"), f("mha.float_mask"));
    assertArrayEquals(f("mha.out_float_mask").toDoubleArray(), floatMask.toDoubleArray(), 1e-5, "a float mask per head");
    Tensor unbatched = mha.forward(f("mha.q").select(1, 0), f("mha.k").select(1, 0), f("mha.v").select(1, 0), f("mha.attn_mask"));
    Tensor batchOfOne = mha.forward(f("mha.q").narrow(1, 0, 1), f("mha.k").narrow(1, 0, 1), f("mha.v").narrow(1, 0, 1), f("mha.attn_mask"));
    assertArrayEquals(batchOfOne.toDoubleArray(), unbatched.toDoubleArray(), 1e-6, "unbatched");
    close(mha);
  }

  @Test
  void multiheadAttentionGradientsMatchPyTorch() {
    MultiheadAttention mha = new MultiheadAttention(16, 4, 0.0, true, true, new Generator(9));
    loadInto(mha, "gmha");
    mha.train();
    Tensor q = f("gmha.q").detach().clone().requiresGrad_(), kv = f("gmha.kv").detach().clone().requiresGrad_();
    Tensor y = mha.forward(q, kv, kv, f("gmha.mask"));
    assertArrayEquals(f("gmha.out").toDoubleArray(), y.toDoubleArray(), 1e-5);
    y.backward(f("gmha.up"));
    assertArrayEquals(f("gmha.grad_q").toDoubleArray(), q.grad().toDoubleArray(), 1e-5, "query");
    assertArrayEquals(f("gmha.grad_kv").toDoubleArray(), kv.grad().toDoubleArray(), 1e-5, "key and value (one tensor)");
    Map<String, Tensor> params = mha.namedParameters();
    assertArrayEquals(f("gmha.grad_in_proj_weight").toDoubleArray(), params.get("in_proj_weight").grad().toDoubleArray(), 1e-5);
    assertArrayEquals(f("gmha.grad_in_proj_bias").toDoubleArray(), params.get("in_proj_bias").grad().toDoubleArray(), 1e-5);
    assertArrayEquals(f("gmha.grad_out_proj_weight").toDoubleArray(), params.get("out_proj.weight").grad().toDoubleArray(), 1e-5);
    close(mha);
  }

  @Test
  void selfAttentionsOneProjectionGivesTheSplitProjectionsGradients() {
    MultiheadAttention mha = new MultiheadAttention(16, 4, 0.0, true, true, new Generator(10));
    Tensor x = Tensor.randn(new long[] {2, 5, 16}, new Generator(11)).requiresGrad_();
    Tensor up = Tensor.randn(new long[] {2, 5, 16}, new Generator(12));
    Map<String, Tensor> params = mha.namedParameters();
    mha.forward(x).backward(up);  // query == key == value: one GEMM over in_proj_weight
    double[] gx = x.grad().toDoubleArray(), gw = params.get("in_proj_weight").grad().toDoubleArray();
    x.setGrad(null);
    mha.zeroGrad();
    mha.forward(x, x.view(2, 5, 16), x.view(2, 5, 16), null).backward(up);  // distinct handles: three projections
    assertArrayEquals(gx, x.grad().toDoubleArray(), 1e-5);
    assertArrayEquals(gw, params.get("in_proj_weight").grad().toDoubleArray(), 1e-5);
    close(mha);
  }

  @Test
  void encoderLayersMatchPyTorchPostAndPreNorm() {
    TransformerEncoderLayer enc = new TransformerEncoderLayer(16, 4, 32, 0.1, "relu", 1e-5, true, false, new Generator(1));
    loadInto(enc, "enc");
    assertEquals(state("enc").keySet().stream().filter(k -> !k.equals("src") && !k.equals("mask") && !k.equals("out")).toList(),
        List.copyOf(enc.stateDict().keySet()), "PyTorch's state-dict names, in its order");
    assertArrayEquals(f("enc.out").toDoubleArray(), enc.forward(f("enc.src"), f("enc.mask"), false).toDoubleArray(), 1e-5);
    assertArrayEquals(f("enc.out").toDoubleArray(), enc.forward(f("enc.src"), f("enc.mask"), true).toDoubleArray(), 1e-5, "mask and hint");
    String m = assertThrows(IllegalArgumentException.class, () -> enc.forward(f("enc.src"), null, true)).getMessage();
    assertTrue(m.startsWith("TransformerEncoderLayer.forward(): Need attn_mask if specifying the is_causal hint"), m);  // PyTorch's rule
    TransformerEncoderLayer pre = new TransformerEncoderLayer(16, 4, 32, 0.1, "gelu", 1e-5, false, true, new Generator(2));
    loadInto(pre, "pre");
    assertArrayEquals(f("pre.out").toDoubleArray(), pre.forward(f("pre.src")).toDoubleArray(), 1e-5);
    close(enc);
    close(pre);
  }

  @Test
  void decoderLayerAndEncoderStackMatchPyTorch() {
    TransformerDecoderLayer dec = new TransformerDecoderLayer(16, 4, 32, 0.1, "relu", 1e-5, true, false, new Generator(3));
    loadInto(dec, "dec");
    Tensor out = dec.forward(f("dec.tgt"), f("dec.memory"), f("dec.tgt_mask"), null, false, false);
    assertArrayEquals(f("dec.out").toDoubleArray(), out.toDoubleArray(), 1e-5);
    Generator g = new Generator(4);
    TransformerEncoder stack = new TransformerEncoder(() -> new TransformerEncoderLayer(16, 4, 32, 0.1, "relu", 1e-5, true, false, g), 2,
        new LayerNorm(16));
    assertTrue(stack.stateDict().containsKey("layers.1.self_attn.in_proj_weight"));
    loadInto(stack, "stack");
    assertArrayEquals(f("stack.out").toDoubleArray(), stack.forward(f("stack.src")).toDoubleArray(), 1e-5);
    close(dec);
    close(stack);
  }

  @Test
  void rmsNormMatchesPyTorch() {
    RMSNorm rms = new RMSNorm(4, 16);
    loadInto(rms, "rms");
    assertArrayEquals(f("rms.out").toDoubleArray(), rms.forward(f("rms.x")).toDoubleArray(), 1e-6);
    assertThrows(IllegalArgumentException.class, () -> rms.forward(Tensor.ones(3, 16, 4)));
    close(rms);
  }

  @Test
  void scaledDotProductAttentionAndItsGradientsMatchPyTorch() {
    for (String name : new String[] {"sdpa", "sdpac"}) {
      Tensor q = f(name + ".q").detach().requiresGrad_(), k = f(name + ".k").detach().requiresGrad_();
      Tensor v = f(name + ".v").detach().requiresGrad_();
      Tensor mask = fixtures.has(name + ".mask") ? fixtures.tensor(name + ".mask") : null;
      Tensor y = Functional.scaledDotProductAttention(q, k, v, mask, 0, mask == null, 0.3, true, new Generator(0));
      assertEquals(DType.FLOAT64, y.dtype());
      assertArrayEquals(f(name + ".out").toDoubleArray(), y.toDoubleArray(), 1e-12, name);
      y.backward(f(name + ".up"));
      assertArrayEquals(f(name + ".grad_q").toDoubleArray(), q.grad().toDoubleArray(), 1e-12, name + " query gradient");
      assertArrayEquals(f(name + ".grad_k").toDoubleArray(), k.grad().toDoubleArray(), 1e-12, name + " key gradient");
      assertArrayEquals(f(name + ".grad_v").toDoubleArray(), v.grad().toDoubleArray(), 1e-12, name + " value gradient");
    }
  }

  @Test
  void badConstructorArgumentsAreRefused() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new MultiheadAttention(10, 3)).getMessage()
        .contains("embed_dim must be divisible by num_heads"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new TransformerEncoderLayer(16, 4, 32, 0.1, "tanh", 1e-5, false, false,
        new Generator(0))).getMessage().contains("activation should be relu/gelu, not tanh"));
    MultiheadAttention mha = new MultiheadAttention(8, 2);
    String m = assertThrows(IllegalArgumentException.class, () -> mha.forward(Tensor.ones(3, 2, 8), Tensor.ones(4, 2, 8),
        Tensor.ones(4, 2, 8), Tensor.ones(new long[] {3, 5}, DType.BOOL))).getMessage();
    assertTrue(m.contains("The shape of the attn_mask should be [3, 4]"), m);
    m = assertThrows(IllegalArgumentException.class, () -> mha.forward(Tensor.ones(3, 2, 6))).getMessage();
    assertTrue(m.contains("was expecting embedding dimension of 8, but got 6"), m);
    mha.close();
  }
  /** TransformerOptions builds the layer the long constructor builds: the same parameters from the same generator, the same output. */
  @Test
  void optionsBuildWhatTheLongConstructorBuilds() {
    TransformerOptions o = TransformerOptions.of().dimFeedforward(32).dropout(0.0).activation("gelu").layerNormEps(1e-6)
        .batchFirst(true).normFirst(true).bias(false);
    Tensor src = Tensor.randn(new long[] {2, 5, 16}, new Generator(3)), memory = Tensor.randn(new long[] {2, 3, 16}, new Generator(4));
    try (TransformerEncoderLayer a = new TransformerEncoderLayer(16, 4, o, new Generator(7));
         TransformerEncoderLayer b = new TransformerEncoderLayer(16, 4, 32, 0.0, "gelu", 1e-6, true, true, false, new Generator(7));
         TransformerDecoderLayer c = new TransformerDecoderLayer(16, 4, o, new Generator(8));
         TransformerDecoderLayer d = new TransformerDecoderLayer(16, 4, 32, 0.0, "gelu", 1e-6, true, true, false, new Generator(8))) {
      assertEquals(b.stateDict().keySet(), a.stateDict().keySet());
      assertTrue(a.stateDict().keySet().stream().noneMatch(k -> k.endsWith("bias")), "bias(false) left every bias out");
      assertArrayEquals(b.forward(src).toFloatArray(), a.forward(src).toFloatArray());
      assertArrayEquals(d.forward(src, memory).toFloatArray(), c.forward(src, memory).toFloatArray());
    }
    try (TransformerEncoderLayer byDefault = new TransformerEncoderLayer(8, 2, TransformerOptions.of())) {
      assertArrayEquals(new long[] {2048, 8}, byDefault.stateDict().get("linear1.weight").shape());
    }
  }
}
