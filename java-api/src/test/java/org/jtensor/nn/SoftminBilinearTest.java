package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jtensor.Close;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Functional.softmin, rmsNorm, bilinear, lpPool1d/2d, localResponseNorm and maxUnpool1d/2d, and the Softmin, Bilinear, LPPool2d,
 * LocalResponseNorm, MaxUnpool1d and Upsample modules, against PyTorch
 * 2.13 (resources/nnlayers/fixtures.pt from make_fixtures.py): values and every gradient, an
 * nn.Bilinear state_dict loaded, GradCheck in float64 and PyTorch's refusals.
 */
class SoftminBilinearTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/nnlayers/fixtures.pt");

  private static final Map<String, Function<List<Tensor>, Tensor>> CALLS = Map.ofEntries(
      Map.entry("unpool2d", in -> Functional.maxUnpool2d(in.get(0), in.get(1), new long[] {2}, null, new long[] {0}, new long[] {5, 5})),
      Map.entry("unpool1d", in -> new MaxUnpool1d(new long[] {3}, new long[] {2}, new long[] {1}).forward(in.get(0), in.get(1))),
      Map.entry("lrn3d", in -> Functional.localResponseNorm(in.get(0), 3, 0.5, 0.75, 1.5)),
      Map.entry("lrn4d", in -> new LocalResponseNorm(4).forward(in.get(0))),
      Map.entry("lrn5d", in -> Functional.localResponseNorm(in.get(0), 2, 1e-2, 0.5, 2.0)),
      Map.entry("lp1", in -> Functional.lpPool1d(in.get(0), 2.0, new long[] {3}, new long[] {2}, false)),
      Map.entry("lp2", in -> Functional.lpPool2d(in.get(0), 1.5, new long[] {2, 3}, null, true)),
      Map.entry("lp2_unbatched", in -> Functional.lpPool2d(in.get(0), 3.0, new long[] {2}, new long[] {1, 2}, false)),
      Map.entry("softmin", in -> Functional.softmin(in.get(0), 0)),
      Map.entry("rms", in -> Functional.rmsNorm(in.get(0), new long[] {3, 4}, in.get(1), 1e-3)),
      Map.entry("rms_noeps", in -> Functional.rmsNorm(in.get(0), new long[] {4}, null, null)),
      Map.entry("bilinear", in -> Functional.bilinear(in.get(0), in.get(1), in.get(2), in.get(3))),
      Map.entry("bilinear_1d", in -> Functional.bilinear(in.get(0), in.get(1), in.get(2), null)));

  private static void close(String what, Tensor want, Tensor got) {
    Close.assertTensor(what, want, got, want.dtype() == DType.FLOAT64 ? 1e-12 : 2e-6);
  }

  @Test
  void valuesAndGradientsMatchPyTorch() {
    for (String name : CALLS.keySet()) {
      List<Tensor> in = new ArrayList<>();
      for (int k = 0; fixtures.has(name + ".in" + k); k++) {
        Tensor t = fixtures.tensor(name + ".in" + k);
        in.add(t.clone().requiresGrad_(t.dtype().isFloatingPoint()));
      }
      Tensor out = CALLS.get(name).apply(in);
      close(name, fixtures.tensor(name + ".out"), out);
      out.mul(fixtures.tensor(name + ".up")).sum().backward();
      for (int k = 0; k < in.size(); k++) {
        if (fixtures.has(name + ".grad" + k)) close(name + ": input " + k + "'s gradient", fixtures.tensor(name + ".grad" + k), in.get(k).grad());
      }
    }
  }

  @Test
  void modulesMatchPyTorchAndBilinearLoadsItsStateDict() {
    try (Bilinear m = new Bilinear(3, 4, 2, true, new Generator(1)); Bilinear noBias = new Bilinear(3, 4, 2, false, new Generator(1));
         Softmin softmin = new Softmin(0); LPPool2d lp = new LPPool2d(3.0, new long[] {2}, new long[] {1, 2}, false)) {
      close("LPPool2d", fixtures.tensor("lp2_unbatched.out"), lp.forward(fixtures.tensor("lp2_unbatched.in0")));
      assertEquals(Set.of("weight", "bias"), m.stateDict().keySet());
      assertEquals(Set.of("weight"), noBias.stateDict().keySet());
      assertArrayEquals(new long[] {2, 3, 4}, m.weight().shape());
      double bound = 1 / Math.sqrt(3);  // U(±1/√in1), weight and bias alike
      assertTrue(m.weight().abs().le(bound).all().item() == 1 && m.bias().abs().le(bound).all().item() == 1);
      fixtures.loadInto(m, "bil");
      close("Bilinear", fixtures.tensor("bil.out"), m.forward(fixtures.tensor("bil.in1"), fixtures.tensor("bil.in2")));
      close("Softmin", fixtures.tensor("softmin.out"), softmin.forward(fixtures.tensor("softmin.in0")));
    }
  }

  @Test
  void upsampleMatchesPyTorchsModule() {
    Tensor x = fixtures.tensor("upsample.x");
    try (Upsample nearest = new Upsample(2); Upsample scaled = new Upsample(new double[] {1.5, 2.5}, "bilinear", null);
         Upsample sized = new Upsample(new long[] {7, 3}, "bilinear", true); Upsample linear = new Upsample(new long[] {9}, "linear", null)) {
      close("nearest", fixtures.tensor("upsample.nearest2"), nearest.forward(x));
      close("bilinear by scale", fixtures.tensor("upsample.bilinear_scale"), scaled.forward(x));
      close("bilinear to size, align_corners", fixtures.tensor("upsample.bilinear_size_ac"), sized.forward(x));
      close("linear", fixtures.tensor("upsample.linear"), linear.forward(x.select(0, 0)));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Upsample((long[]) null, "nearest", null));
    assertEquals("Upsample(): either size or scale_factor should be defined", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.localResponseNorm(Tensor.randn(3, 4), 2, 1e-4, 0.75, 1));
    assertEquals("localResponseNorm(): Expected 3D or higher dimensionality input (got 2 dimensions)", e.getMessage());
    Tensor v = Tensor.randn(1, 2, 2, 2), i = Tensor.zeros(new long[] {1, 2, 2, 2}, DType.INT64);
    e = assertThrows(IllegalArgumentException.class, () -> Functional.maxUnpool2d(v, i.narrow(1, 0, 1), new long[] {2}, null, new long[] {0}, null));
    assertEquals("maxUnpool2d(): Expected shape of indices to be same as that of the input tensor ([1, 2, 2, 2]) but got indices tensor with shape: "
        + "[1, 1, 2, 2]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functional.maxUnpool2d(v, i, new long[] {2}, null, new long[] {0}, new long[] {9, 9}));
    assertEquals("maxUnpool2d(): invalid output_size [9, 9] (dim 0 must be between 2 and 6)", e.getMessage());
    IndexOutOfBoundsException o = assertThrows(IndexOutOfBoundsException.class,
        () -> Functional.maxUnpool2d(v, i.add(30L), new long[] {2}, null, new long[] {0}, null));
    assertEquals("maxUnpool2d(): Found an invalid max index: 30 (output volumes are of size 4x4)", o.getMessage());
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor a = Tensor.randn(2, 3).to(DType.FLOAT64), b = Tensor.randn(2, 4).to(DType.FLOAT64), w = Tensor.randn(5, 3, 4).to(DType.FLOAT64);
    Tensor bias = Tensor.randn(5).to(DType.FLOAT64), x = Tensor.randn(3, 4).to(DType.FLOAT64);
    GradCheck.check(in -> Functional.bilinear(in.get(0), in.get(1), in.get(2), in.get(3)), List.of(a, b, w, bias));
    GradCheck.check(in -> Functional.softmin(in.get(0), 1), List.of(x));
    Tensor idx = Functional.maxPool1dWithIndices(x.unsqueeze(0), new long[] {2}, null, new long[] {0}, new long[] {1}, false).indices();
    GradCheck.check(in -> Functional.maxUnpool1d(in.get(0), idx, new long[] {2}, null, new long[] {0}, null), List.of(Tensor.randn(1, 3, 2).to(DType.FLOAT64)));
    GradCheck.check(in -> Functional.lpPool1d(in.get(0), 2.0, new long[] {2}, null, false), List.of(x.unsqueeze(0)));
    GradCheck.check(in -> Functional.rmsNorm(in.get(0), new long[] {4}, in.get(1), 1e-5), List.of(x, b.select(0, 0)));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor w = Tensor.randn(2, 3, 4), x = Tensor.randn(2, 3);
    assertMessage("bilinear(): input batch dimensions do not match: got 5 and 6", () -> Functional.bilinear(Tensor.randn(5, 3), Tensor.randn(6, 4), w, null));
    assertMessage("bilinear(): input2 size does not match weight size: got 4 but expected 5",
        () -> Functional.bilinear(Tensor.randn(5, 3), Tensor.randn(5, 4), Tensor.randn(2, 3, 5), null));
    assertMessage("bilinear(): bias size does not match weight size: got 3 but expected 2",
        () -> Functional.bilinear(Tensor.randn(5, 3), Tensor.randn(5, 4), w, Tensor.randn(3)));
    assertMessage("bilinear(): input dimensions do not match: got 2 and 1", () -> Functional.bilinear(Tensor.randn(5, 3), Tensor.randn(4), w, null));
    assertMessage("Bilinear(): in1_features must be > 0, but got (in1_features=0)", () -> new Bilinear(0, 4, 2));
    // PyTorch 2.13's words as they are, "[*4]" and "[*2, 4]" (F.layer_norm's say "[*, 4]"); was "[*, (4)]"
    assertMessage("rmsNorm(): Given normalized_shape=[4], expected input with shape [*4], but got input of size[2, 3]",
        () -> Functional.rmsNorm(x, new long[] {4}, null, null));
    assertMessage("rmsNorm(): Given normalized_shape=[2, 4], expected input with shape [*2, 4], but got input of size[2, 3]",
        () -> Functional.rmsNorm(x, new long[] {2, 4}, null, null));
    assertMessage("rmsNorm(): Input tensor must have at least 3 dimensions, but got 2", () -> Functional.rmsNorm(x, new long[] {1, 2, 3}, null, null));
    assertMessage("rmsNorm(): Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and normalized_shape = [3]",
        () -> Functional.rmsNorm(x, new long[] {3}, Tensor.ones(4), null));
    assertMessage("rmsNorm(): Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
        + "normalized_shape = []", () -> Functional.rmsNorm(x, new long[0], null, null));
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(want, e.getMessage());
  }
}
