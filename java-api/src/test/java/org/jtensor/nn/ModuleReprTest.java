package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Module.toString() as PyTorch 2.13's print(model), string for string (resources/modulerepr/reprs.txt
 * from make_fixtures.py beside it): each module's extra_repr with its non-default arguments, the
 * children indented as "(name): ...", ModuleList's folded runs, a user's module by its simple name.
 */
class ModuleReprTest extends ScopedTest {
  /** The same modules as make_fixtures.py's CASES, built with the same arguments. */
  private static Map<String, Supplier<Module>> cases() {
    Map<String, Supplier<Module>> c = new LinkedHashMap<>();
    c.put("linear", () -> new Linear(784, 256));
    c.put("linear_nobias", () -> new Linear(3, 2, false));
    c.put("bilinear", () -> new Bilinear(2, 3, 4, false, new Generator(1)));
    c.put("conv1d", () -> new Conv1d(2, 4, 3));
    c.put("conv2d", () -> new Conv2d(2, 4, 3, LayerOptions.of().stride(2).padding(1).bias(false)));
    c.put("conv2d_dilated", () -> new Conv2d(4, 4, new long[] {3, 5}, LayerOptions.of().padding("same").dilation(2).groups(2), new Generator(1)));
    c.put("conv3d", () -> new Conv3d(1, 2, 3, LayerOptions.of().padding("valid")));
    c.put("conv_transpose2d", () -> new ConvTranspose2d(4, 2, new long[] {3}, LayerOptions.of().stride(2).padding(1), new long[] {1}, new Generator(1)));
    c.put("batchnorm1d", () -> new BatchNorm1d(5));
    c.put("batchnorm2d", () -> new BatchNorm2d(3, 1e-3, null, false, false));
    c.put("instancenorm2d", () -> new InstanceNorm2d(3, 1e-5, 0.1, true, false));
    c.put("layernorm", () -> new LayerNorm(48));
    c.put("layernorm_plain", () -> new LayerNorm(new long[] {3, 4}, 1e-6, false, false));
    c.put("groupnorm", () -> new GroupNorm(2, 4, 1e-3, false));
    c.put("rmsnorm", () -> new RMSNorm(new long[] {4}, 1e-6, true));
    c.put("localresponsenorm", () -> new LocalResponseNorm(3, 1e-3, 0.5, 2.0));
    c.put("dropout", () -> new Dropout(0.3));
    c.put("dropout2d", () -> new Dropout2d(0.25));
    c.put("alphadropout", () -> new AlphaDropout(0.2));
    c.put("embedding", () -> new Embedding(10, 3));
    c.put("embedding_padding", () -> new Embedding(10, 3, 0));
    c.put("relu", ReLU::new);
    c.put("leakyrelu", () -> new LeakyReLU(0.2));
    c.put("elu", () -> new ELU(0.5));
    c.put("celu", () -> new CELU(2.0));
    c.put("hardtanh", () -> new Hardtanh(-2.0, 2.0));
    c.put("relu6", ReLU6::new);
    c.put("softplus", () -> new Softplus(2.0, 10.0));
    c.put("softmax", () -> new Softmax(1));
    c.put("softmin", () -> new Softmin(-1));
    c.put("glu", () -> new GLU(0));
    c.put("threshold", () -> new Threshold(0.1, 20.0));
    c.put("hardshrink", () -> new Hardshrink(0.25));
    c.put("softshrink", () -> new Softshrink(0.75));
    c.put("prelu", () -> new PReLU(3, 0.1));
    c.put("rrelu", () -> new RReLU(0.1, 0.3));
    c.put("gelu", GELU::new);
    c.put("sigmoid", Sigmoid::new);
    c.put("flatten", Flatten::new);
    c.put("flatten_dims", () -> new Flatten(0, 2));
    c.put("maxpool2d", () -> new MaxPool2d(2));
    c.put("maxpool1d", () -> new MaxPool1d(3, LayerOptions.of().stride(2).padding(1).dilation(2).ceilMode(true)));
    c.put("avgpool2d", () -> new AvgPool2d(new long[] {3}, LayerOptions.of().stride(1).padding(1).ceilMode(true).countIncludePad(false)));
    c.put("adaptiveavgpool2d", () -> new AdaptiveAvgPool2d(1, 1));
    c.put("adaptivemaxpool1d", () -> new AdaptiveMaxPool1d(4));
    c.put("pixelshuffle", () -> new PixelShuffle(2));
    c.put("identity", Identity::new);
    c.put("logsoftmax", () -> Softmax.log(1));
    c.put("pixelunshuffle", () -> new PixelUnshuffle(3));
    c.put("multiheadattention", () -> new MultiheadAttention(8, 2));
    c.put("encoderlayer", () -> new TransformerEncoderLayer(8, 2, 16, 0.1, "relu", 1e-5, false, false, new Generator(1)));
    c.put("encoder", () -> new TransformerEncoder(() -> new TransformerEncoderLayer(8, 2, 16, 0.1, "relu", 1e-5, false, false, new Generator(1)), 2, null));
    c.put("decoderlayer", () -> new TransformerDecoderLayer(8, 2, 16, 0.1, "relu", 1e-5, false, false, new Generator(1)));
    c.put("embeddingbag", () -> new EmbeddingBag(10, 3));
    c.put("embeddingbag_max", () -> new EmbeddingBag(10, 3, 1.0, 1.0, "max", false, 2L, new Generator(1)));
    c.put("maxunpool1d", () -> new MaxUnpool1d(new long[] {3}, new long[] {2}, new long[] {1}));
    c.put("maxunpool2d", () -> new MaxUnpool2d(2));
    c.put("lppool1d", () -> new LPPool1d(1.5, new long[] {3}, new long[] {2}, true));
    c.put("lppool2d", () -> new LPPool2d(2.5, 3));
    c.put("upsample", () -> new Upsample(new double[] {2.0, 3.0}, "bilinear", true));
    c.put("upsample_size", () -> new Upsample(new long[] {4, 4}, "nearest", null));
    c.put("moduledict", () -> {
      Map<String, Module> m = new LinkedHashMap<>();
      m.put("act", new ReLU());
      m.put("fc", new Linear(2, 3));
      return new ModuleDict<>(m);
    });
    c.put("transformer", () -> new Transformer(8, 2, 1, 1, 16, 0.1, "relu", 1e-5, false, false, true, new Generator(1)));
    c.put("conv_transpose1d", () -> new ConvTranspose1d(2, 3, 4));
    c.put("instancenorm1d", () -> new InstanceNorm1d(4));
    c.put("dropout3d", () -> new Dropout3d(0.4));
    c.put("featurealphadropout", () -> new FeatureAlphaDropout(0.1));
    c.put("avgpool1d", () -> new AvgPool1d(3));
    c.put("maxpool3d", () -> new MaxPool3d(2));
    c.put("adaptivemaxpool2d", () -> new AdaptiveMaxPool2d(2, 3));
    c.put("hardswish", Hardswish::new);
    c.put("silu", SiLU::new);
    c.put("crossentropyloss", () -> new CrossEntropyLoss(null, -100, "mean", 0.1));
    c.put("mseloss", () -> new MSELoss("sum"));
    c.put("sequential", () -> new Sequential(new Linear(784, 256), new ReLU(), new Dropout(0.2), new Linear(256, 10)));
    c.put("nested", () -> new Sequential(new Sequential(new Conv2d(1, 2, 3), new BatchNorm2d(2)), new Flatten()));
    c.put("modulelist", () -> new ModuleList<>(List.of(new Linear(2, 2), new Linear(2, 2), new ReLU(), new Linear(2, 2))));
    c.put("mynet", MyNet::new);
    c.put("empty_sequential", Sequential::new);
    return c;
  }

  /** A user's module, as make_fixtures.py's MyNet: its children print under the class's simple name. */
  static final class MyNet extends Module {
    final Linear fc1 = registerModule("fc1", new Linear(4, 8));
    final ReLU act = registerModule("act", new ReLU());
    final Linear fc2 = registerModule("fc2", new Linear(8, 2));

    @Override
    public Tensor forward(Tensor x) {
      return fc2.forward(act.forward(fc1.forward(x)));
    }
  }

  private static Map<String, String> pytorchReprs() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    try (InputStream in = ModuleReprTest.class.getResourceAsStream("/modulerepr/reprs.txt")) {
      String name = null;
      StringBuilder text = new StringBuilder();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("=== ")) {
          if (name != null) out.put(name, text.toString());
          name = line.substring(4);
          text.setLength(0);
        } else {
          text.append(text.length() == 0 ? "" : "\n").append(line);
        }
      }
      out.put(name, text.toString());
    }
    return out;
  }

  @Test
  void everyModulePrintsAsPyTorchPrintsIt() throws IOException {
    Map<String, String> want = pytorchReprs();
    Map<String, Supplier<Module>> cases = cases();
    assertEquals(want.keySet(), cases.keySet(), "the Java cases and make_fixtures.py's CASES differ");
    List<String> differ = new ArrayList<>();
    for (Map.Entry<String, Supplier<Module>> c : cases.entrySet()) {
      try (Module m = c.getValue().get()) {
        String got = m.toString();
        if (!got.equals(want.get(c.getKey()))) differ.add(c.getKey() + ":\n  PyTorch: " + want.get(c.getKey()) + "\n  jtensor: " + got);
      }
    }
    assertTrue(differ.isEmpty(), differ.size() + " reprs differ:\n" + String.join("\n", differ));
  }

  /** A subclass's extraRepr() shows as PyTorch's extra_repr does: on the one line without children, first among them with. */
  @Test
  void aUserModulesExtraReprComesFirst() {
    final class Scaled extends Module {
      final Linear inner = registerModule("inner", new Linear(2, 2, false));

      @Override
      protected String extraRepr() {
        return "scale=0.5";
      }

      @Override
      public Tensor forward(Tensor x) {
        return inner.forward(x).mul(0.5);
      }
    }
    try (Scaled s = new Scaled()) {
      assertEquals("Scaled(\n  scale=0.5\n  (inner): Linear(in_features=2, out_features=2, bias=False)\n)", s.toString());
    }
  }
}
