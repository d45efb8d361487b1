package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
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
 * A hostile review of the module system and the transformer modules against PyTorch 2.13
 * (resources/modulehostile/fixtures.pt, written by make_fixtures.py beside it; PyTorch's answers for
 * the refusals noted beside each case).
 */
class ModuleHostileTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/modulehostile/fixtures.pt");

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static void loadInto(Module m, String prefix) {
    fixtures.loadInto(m, prefix);
  }

  @Test
  void multiheadAttentionWithoutBiasBatchFirstThreeDimBoolMaskAndFloatPaddingMatchesPyTorch() {
    try (MultiheadAttention m = new MultiheadAttention(8, 2, 0.0, false, true, new Generator(1))) {
      assertEquals(List.of("in_proj_weight", "out_proj.weight"), List.copyOf(m.stateDict().keySet()));
      loadInto(m, "nb");
      Tensor y = m.forward(f("nb.q"), f("nb.kv"), f("nb.kv"), f("nb.kpm"), f("nb.mask"), false);
      assertArrayEquals(f("nb.out").toDoubleArray(), y.toDoubleArray(), 1e-5);
    }
  }

  @Test
  void encoderAndDecoderLayersOfOneTokenMatchPyTorch() {
    try (TransformerEncoderLayer enc = new TransformerEncoderLayer(8, 2, 16, 0.1, "gelu", 1e-5, false, true, new Generator(2));
         TransformerDecoderLayer dec = new TransformerDecoderLayer(8, 2, 16, 0.1, "relu", 1e-5, true, true, new Generator(3))) {
      loadInto(enc, "enc");
      Tensor one = enc.forward(f("enc.src"), Tensor.zeros(1, 1), Tensor.zeros(new long[] {1, 1}, DType.BOOL), false);
      assertArrayEquals(f("enc.out").toDoubleArray(), one.toDoubleArray(), 1e-5, "batch of one, sequence of one");
      Tensor three = enc.forward(f("enc.src3"), f("enc.fm"), false);
      assertArrayEquals(f("enc.out3").toDoubleArray(), three.toDoubleArray(), 1e-5, "a float mask");
      assertArrayEquals(three.toDoubleArray(), enc.forward(f("enc.src3"), f("enc.fm"), false).toDoubleArray(), 0.0, "eval is deterministic");
      loadInto(dec, "dec");
      Tensor d = dec.forward(f("dec.tgt"), f("dec.mem"), null, f("dec.mm"), false, false);
      assertArrayEquals(f("dec.out").toDoubleArray(), d.toDoubleArray(), 1e-5, "decoder, memory mask");
    }
  }

  // PyTorch: nn.Linear(0, 2) has weight [2, 0] and a zero bias (bound 0 for fan_in 0), and its forward
  // of a [4, 0] input is zeros [4, 2]; nn.Linear(3, 0) has weight [0, 3].
  @Test
  void linearWithZeroFeaturesIsAcceptedAsPyTorchAcceptsIt() {
    try (Linear l = new Linear(0, 2, new Generator(0)); Linear none = new Linear(3, 0, new Generator(0))) {
      assertArrayEquals(new long[] {2, 0}, l.weight().shape());
      assertArrayEquals(new double[] {0, 0}, l.bias().toDoubleArray(), 0.0);
      Tensor y = l.forward(Tensor.ones(4, 0));
      assertArrayEquals(new long[] {4, 2}, y.shape());
      assertArrayEquals(new double[8], y.toDoubleArray(), 0.0);
      assertArrayEquals(new long[] {0, 3}, none.weight().shape());
    }
    // torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(3, 0)) is (0, 3), not a division by zero
    assertEquals(3, Init.fanOut(Tensor.zeros(3, 0)));
    assertEquals(0, Init.fanIn(Tensor.zeros(3, 0)));
    // nn.Linear(-1, 3): "Trying to create tensor with negative dimension -1: [3, -1]"
    String m = assertThrows(IllegalArgumentException.class, () -> new Linear(-1, 3)).getMessage();
    assertTrue(m.contains("Linear") && m.contains("-1"), m);
  }

  // PyTorch: "only bool and floating types of attn_mask are supported" / "... of key_padding_mask ...".
  @Test
  void anIntegerMaskIsRefusedNamingWhichMask() {
    try (MultiheadAttention m = new MultiheadAttention(4, 2)) {
      Tensor x = Tensor.ones(3, 1, 4);
      String a = assertThrows(IllegalArgumentException.class,
          () -> m.forward(x, x, x, null, Tensor.zeros(new long[] {3, 3}, DType.INT64), false)).getMessage();
      assertTrue(a.contains("only bool and floating types of attn_mask are supported"), a);
      String k = assertThrows(IllegalArgumentException.class,
          () -> m.forward(x, x, x, Tensor.zeros(new long[] {1, 3}, DType.INT64), null, false)).getMessage();
      assertTrue(k.contains("only bool and floating types of key_padding_mask are supported"), k);
    }
  }

  // PyTorch: w.copy_(w.t()) and load_state_dict({"weight": l.weight.t()}) are refused ("some elements of
  // the input tensor and the written-to tensor refer to a single memory location").
  @Test
  void loadingATransposedViewOfTheModulesOwnWeightIsNotSilentlyWrong() {
    try (Linear l = new Linear(3, 3, new Generator(0))) {
      Tensor w = l.weight();
      try (org.jtensor.autograd.GradMode.Scope off = org.jtensor.autograd.GradMode.noGrad()) {
        w.copy_(Tensor.arange(0, 9, 1, DType.FLOAT32).reshape(3, 3));
      }
      double[] before = w.toDoubleArray();
      Map<String, Tensor> sd = new LinkedHashMap<>();
      sd.put("weight", w.t());
      sd.put("bias", l.bias());
      RuntimeException e = assertThrows(RuntimeException.class, () -> l.loadStateDict(sd));
      assertTrue(e instanceof IllegalArgumentException || e instanceof IllegalStateException, e.toString());
      assertArrayEquals(before, w.toDoubleArray(), 0.0, "nothing copied");
    }
  }

  @Test
  void stateDictOfAnotherDtypeIsConvertedAndSizeMismatchIsReportedWithMissingKeys() {
    try (Linear l = new Linear(3, 2, new Generator(0))) {
      Map<String, Tensor> sd = new LinkedHashMap<>();
      sd.put("weight", Tensor.fromArray(new double[] {1, 2, 3, 4, 5, 6}, 2, 3));
      sd.put("bias", Tensor.fromArray(new double[] {7, 8}));
      l.loadStateDict(sd);
      assertEquals(DType.FLOAT32, l.weight().dtype());
      assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, l.weight().toDoubleArray(), 0.0);
      // PyTorch: 'Missing key(s) in state_dict: "bias".' and 'size mismatch for weight: copying a param with
      // shape torch.Size([3, 3]) from checkpoint, the shape in current model is torch.Size([2, 3]).'
      Map<String, Tensor> bad = Map.of("weight", Tensor.ones(3, 3));
      String m = assertThrows(IllegalArgumentException.class, () -> l.loadStateDict(bad)).getMessage();
      assertTrue(m.contains("Missing key(s) in state_dict: \"bias\"") && m.contains("size mismatch for weight"), m);
      assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, l.weight().toDoubleArray(), 0.0);
    }
  }

  // PyTorch: nn.ModuleDict({"a.b": ...}) is refused: 'module name can't contain ".", got: a.b'.
  @Test
  void moduleDictKeyWithADotIsRefusedNamingTheRule() {
    Linear l = new Linear(1, 1);
    try {
      String m = assertThrows(IllegalArgumentException.class, () -> new ModuleDict<>(Map.of("a.b", l))).getMessage();
      assertTrue(m.contains("can't contain \".\", got: a.b"), m);
    } finally {
      l.close();
    }
  }

  @Test
  void trainAndEvalReachEveryModuleAndDropoutOnlyActsInTraining() {
    Generator g = new Generator(5);
    try (TransformerEncoder stack = new TransformerEncoder(() -> new TransformerEncoderLayer(8, 2, 16, 0.5, "relu", 1e-5, true, false, g), 2,
        new LayerNorm(8))) {
      Tensor x = Tensor.randn(new long[] {2, 3, 8}, new Generator(6));
      stack.eval();
      stack.apply(m -> assertTrue(!m.isTraining(), m.getClass().getSimpleName()));
      double[] a = stack.forward(x).toDoubleArray(), b = stack.forward(x).toDoubleArray();
      assertArrayEquals(a, b, 0.0);
      stack.train();
      stack.apply(m -> assertTrue(m.isTraining(), m.getClass().getSimpleName()));
      double[] c = stack.forward(x).toDoubleArray();
      boolean differs = false;
      for (int i = 0; i < a.length; i++) differs |= Math.abs(a[i] - c[i]) > 1e-6;
      assertTrue(differs, "dropout 0.5 in training");
    }
  }
  // PyTorch: nn.TransformerEncoder(layer, 2) deep-copies layer, so layers[0] and layers[1] have their own
  // parameters (24 of them) and a PyTorch checkpoint loads a different weight into each. A supplier that
  // hands out one layer twice tied every layer's weights: a checkpoint loaded silently kept the last layer's.
  @Test
  void anEncoderWhoseSupplierRepeatsALayerIsRefusedNotTied() {
    TransformerEncoderLayer one = new TransformerEncoderLayer(8, 2, 16, 0.0, "relu", 1e-5, false, false, new Generator(7));
    try {
      String m = assertThrows(IllegalArgumentException.class, () -> new TransformerEncoder(() -> one, 2, null)).getMessage();
      assertTrue(m.contains("TransformerEncoder(): the layer supplier returned the same layer for layers 0 and 1"), m);
      assertEquals(3, one.forward(Tensor.ones(3, 1, 8)).shape()[0], "the caller's layer is left open");
      String n = assertThrows(IllegalArgumentException.class, () -> new TransformerEncoder(() -> null, 1, null)).getMessage();
      assertTrue(n.contains("returned null for layer 0"), n);
    } finally {
      one.close();
    }
    Generator g = new Generator(8);
    try (TransformerEncoder fresh = new TransformerEncoder(() -> new TransformerEncoderLayer(8, 2, 16, 0.0, "relu", 1e-5, false, false, g), 2,
        null)) {
      assertEquals(24, fresh.parameters().size());
    }
  }
  // A null module was registered and surfaced later as a NullPointerException from stateDict(),
  // parameters() or train(); it is refused when the container is built, naming the container and slot.
  @Test
  void aNullModuleIsRefusedWhenRegisteredNotLaterWithANullPointerException() {
    try (Linear l = new Linear(2, 2)) {
      String m = assertThrows(IllegalArgumentException.class, () -> new Sequential(l, null)).getMessage();
      assertTrue(m.contains("Sequential(): expected a Module for '1', got null"), m);
      String n = assertThrows(IllegalArgumentException.class, () -> new ModuleList<>(java.util.Arrays.asList(l, null))).getMessage();
      assertTrue(n.contains("ModuleList(): expected a Module for '1', got null"), n);
      assertEquals(2, l.parameters().size());
    }
  }
  // PyTorch refuses a float64 attn_mask or a float16 key_padding_mask beside a float32 query ("Expected
  // attn_mask dtype to be bool or float or to match query dtype"); the refusal named
  // scaledDotProductAttention(), an op the user never called.
  @Test
  void aMaskOfAnotherFloatDtypeIsRefusedNamingMultiheadAttention() {
    try (MultiheadAttention m = new MultiheadAttention(4, 2)) {
      Tensor x = Tensor.ones(3, 1, 4);
      String a = assertThrows(IllegalArgumentException.class,
          () -> m.forward(x, x, x, Tensor.zeros(new long[] {3, 3}, DType.FLOAT64))).getMessage();
      assertTrue(a.startsWith("MultiheadAttention.forward(): Expected attn_mask dtype to be bool or float or to match query dtype, but got "
          + "attn_mask.dtype: float64 and query.dtype: float32 instead."), a);
      String k = assertThrows(IllegalArgumentException.class,
          () -> m.forward(x, x, x, Tensor.zeros(new long[] {1, 3}, DType.FLOAT16), null, false)).getMessage();
      assertTrue(k.startsWith("MultiheadAttention.forward(): Expected key_padding_mask dtype"), k);
    }
  }

  // A null key in the state dict threw NullPointerException (from List.copyOf of the unexpected keys).
  @Test
  void aNullStateDictKeyIsRefused() {
    try (Linear l = new Linear(3, 2)) {
      java.util.HashMap<String, Tensor> h = new java.util.HashMap<>();
      h.put(null, Tensor.ones(1));
      String m = assertThrows(IllegalArgumentException.class, () -> l.loadStateDict(h, false)).getMessage();
      assertTrue(m.contains("loadStateDict(): expected string keys in the state dict, got a null key"), m);
    }
  }
  // PyTorch refuses a float64 query for float32 parameters ("mat1 and mat2 must have the same dtype");
  // here the refusal named linear(), not the module the user called.
  @Test
  void aQueryOfAnotherDtypeThanTheParametersIsRefusedNamingMultiheadAttention() {
    try (MultiheadAttention m = new MultiheadAttention(4, 2)) {
      Tensor x = Tensor.ones(new long[] {3, 1, 4}, DType.FLOAT64);
      String a = assertThrows(IllegalArgumentException.class, () -> m.forward(x)).getMessage();
      assertTrue(a.startsWith("MultiheadAttention.forward(): expected query, key and value of the parameters' dtype float32, got query "
          + "float64"), a);
    }
  }
}
