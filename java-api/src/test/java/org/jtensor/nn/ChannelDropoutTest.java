package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
 * dropout1d/2d/3d, alphaDropout, featureAlphaDropout and their modules: for the mask PyTorch 2.13
 * drew (resources/nnlayers/fixtures.pt from make_fixtures.py), its output and gradient exactly as
 * ATen computes them; over jtensor's own draws, whole channels and the keep rate, the scaling, alpha
 * dropout's zero mean and unit variance; GradCheck in float64 and PyTorch's refusals.
 */
class ChannelDropoutTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/nnlayers/fixtures.pt");

  @Test
  void aFixedMasksValuesAndGradientsMatchPyTorch() {
    String[] cases = {"d1", "d2", "d3", "alpha", "alpha64", "feature_alpha"};
    double[] ps = {0.3, 0.6, 0.5, 0.2, 0.35, 0.4};
    for (int i = 0; i < cases.length; i++) {
      String pre = "drop." + cases[i] + ".";
      Tensor x = fixtures.tensor(pre + "x").clone().requiresGrad_(true), want = fixtures.tensor(pre + "out");
      Tensor y = Dropouts.masked(x, fixtures.tensor(pre + "mask"), ps[i], cases[i].contains("alpha"));
      assertEquals(want.dtype(), y.dtype(), pre + "dtype");
      assertArrayEquals(want.shape(), y.shape(), pre + "shape");
      double tol = want.dtype() == DType.FLOAT64 ? 1e-15 : 1e-7;  // ATen's order of roundings: at most an ulp apart
      Close.assertElements(pre + "out", want.toDoubleArray(), y.toDoubleArray(), Close.ofLargest(tol, want.toDoubleArray()));
      y.mul(fixtures.tensor(pre + "up")).sum().backward();
      double[] g = fixtures.tensor(pre + "grad_x").toDoubleArray();
      Close.assertElements(pre + "grad_x", g, x.grad().toDoubleArray(), Close.ofLargest(tol, g));
    }
  }

  /** Each channel all dropped or all x/(1 − p); about 1 − p of them kept (4 standard deviations). */
  @Test
  void channelDropoutsDropWholeChannelsAtTheRightRate() {
    double p = 0.3;
    Generator g = new Generator(7);
    Tensor[] inputs = {Tensor.randn(64, 50, 3, 3), Tensor.randn(64, 50, 6), Tensor.randn(50, 6), Tensor.randn(8, 50, 2, 2, 2), Tensor.randn(50, 2, 2, 3)};
    for (int k = 0; k < inputs.length; k++) {
      Tensor x = inputs[k];
      Tensor y = switch (k) {
        case 0 -> Functional.dropout2d(x, p, true, g);
        case 1 -> Functional.dropout1d(x, p, true, g);
        case 2 -> new Dropout1d(p, g).forward(x);  // unbatched [C, L]
        case 3 -> Functional.dropout3d(x, p, true, g);
        default -> new Dropout3d(p, g).forward(x);  // unbatched [C, D, H, W]
      };
      long channels = k == 2 || k == 4 ? x.shape()[0] : x.shape()[0] * x.shape()[1];
      Tensor ratio = y.div(x).reshape(channels, -1);  // 0 or the scale (to float32's rounding of y / x) in every element of a channel
      Tensor kept = ratio.sub(1 / (1 - p)).abs().le(1e-6).all(1, false), dropped = ratio.eq(0.0).all(1, false);
      assertTrue(kept.logicalOr(dropped).all().item() == 1, "case " + k + ": every channel whole, scaled by 1/(1 − p)");
      double rate = kept.to(DType.FLOAT64).mean().item(), sd = Math.sqrt(p * (1 - p) / channels);
      assertTrue(Math.abs(rate - (1 - p)) < 4 * sd, "case " + k + ": kept " + rate + " of " + channels + " channels");
    }
  }

  /** On SELU-normal inputs the output keeps mean 0 and variance 1 (n = 200,000: 4 standard errors); dropped values are α'(p − 1)·a. */
  @Test
  void alphaDropoutKeepsMeanAndVariance() {
    double p = 0.2, a = 1 / Math.sqrt((Dropouts.ALPHA * Dropouts.ALPHA * p + 1) * (1 - p));
    Tensor x = Tensor.randn(new long[] {200_000}, new Generator(3)).to(DType.FLOAT64);
    Tensor y = Functional.alphaDropout(x, p, true, new Generator(11));
    assertEquals(0, y.mean().item(), 4 * Math.sqrt(1.0 / 200_000), "mean");
    assertEquals(1, y.var().item(), 0.02, "variance");
    double droppedValue = Dropouts.ALPHA * a * (p - 1);
    double droppedRate = y.eq(droppedValue).to(DType.FLOAT64).mean().item();
    assertEquals(p, droppedRate, 4 * Math.sqrt(p * (1 - p) / 200_000), "dropped fraction");
    Tensor z = Functional.featureAlphaDropout(Tensor.randn(40, 30, 5).to(DType.FLOAT64), p, true, new Generator(5));
    Tensor isDropped = z.eq(droppedValue).reshape(1200, 5);
    assertTrue(isDropped.all(1, false).logicalOr(isDropped.any(1, false).logicalNot()).all().item() == 1, "feature alpha dropout drops whole channels");
  }

  @Test
  void evalModeZeroPAndEmptyInputsReturnTheInputAndPOneGivesZeros() {
    Tensor x = Tensor.randn(2, 3, 4);
    Generator g = new Generator(1);
    for (Tensor y : List.of(Functional.dropout1d(x, 0.5, false, g), Functional.dropout2d(x, 0.0, true, g), Functional.alphaDropout(x, 0.5, false, g),
        Functional.featureAlphaDropout(x, 0.0, true, g))) {
      assertEquals(x.dataPtr(), y.dataPtr(), "the input itself, as PyTorch returns it");
    }
    try (AlphaDropout m = new AlphaDropout(0.5, g)) {
      m.eval();
      assertEquals(x.dataPtr(), m.forward(x).dataPtr());
    }
    assertArrayEquals(new long[] {0, 3, 4}, Functional.dropout2d(Tensor.randn(0, 3, 4), 0.5, true, g).shape());
    for (Tensor y : List.of(Functional.dropout1d(x, 1, true, g), Functional.alphaDropout(x, 1, true, g), Functional.featureAlphaDropout(x, 1, true, g))) {
      assertArrayEquals(new double[24], y.toDoubleArray(), 0, "x · zeros({}), as PyTorch's");
    }
    Tensor ints = Tensor.ones(new long[] {2, 3}, DType.INT64);
    assertEquals(DType.INT64, Functional.dropout1d(ints, 1, true, g).dtype(), "p = 1 keeps an integer dtype");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functional.alphaDropout(ints, 0.5, true, g));
    assertEquals("alphaDropout(): result type float32 can't be cast to the desired output type int64", e.getMessage());
  }

  @Test
  void modulesDrawFromTheirGeneratorAndHoldNoState() {
    Tensor x = Tensor.randn(4, 6, 3, 3);
    try (Dropout2d a = new Dropout2d(0.4, new Generator(9)); Dropout2d b = new Dropout2d(0.4, new Generator(9));
         FeatureAlphaDropout f = new FeatureAlphaDropout()) {
      assertArrayEquals(a.forward(x).toFloatArray(), b.forward(x).toFloatArray(), "the same seed, the same channels");
      assertTrue(a.stateDict().isEmpty() && f.stateDict().isEmpty());
      assertEquals(0.5, f.p());
    }
  }

  @Test
  void gradientsPassGradCheckInFloat64() {
    Tensor x = Tensor.randn(3, 4, 2).to(DType.FLOAT64);
    Generator g = new Generator(0);
    GradCheck.check(in -> Functional.dropout1d(in.get(0), 0.4, true, g.setSeed(5)), List.of(x));
    GradCheck.check(in -> Functional.alphaDropout(in.get(0), 0.3, true, g.setSeed(6)), List.of(x));
    GradCheck.check(in -> Functional.featureAlphaDropout(in.get(0), 0.5, true, g.setSeed(7)), List.of(x));
  }

  @Test
  void badArgumentsAreRefusedInPyTorchsWords() {
    Tensor x = Tensor.randn(2, 3, 4);
    Generator g = new Generator(1);
    assertMessage("dropout1d(): dropout probability has to be between 0 and 1, but got 1.5", () -> Functional.dropout1d(x, 1.5, true, g));
    assertMessage("dropout3d(): dropout probability has to be between 0 and 1, but got -0.1", () -> Functional.dropout3d(x, -0.1, false, g));
    assertMessage("alphaDropout(): dropout probability has to be between 0 and 1, but got NaN", () -> Functional.alphaDropout(x, Double.NaN, true, g));
    assertMessage("Dropout2d(): dropout probability has to be between 0 and 1, but got 2.0", () -> new Dropout2d(2));
    assertMessage("AlphaDropout(): dropout probability has to be between 0 and 1, but got 1.5", () -> new AlphaDropout(1.5));
    assertMessage("dropout1d(): Expected 2D or 3D input, but received a 4D input. Note that dropout1d exists to provide channel-wise dropout on "
        + "inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).",
        () -> Functional.dropout1d(Tensor.randn(2, 2, 2, 2), 0.5, true, g));
    assertMessage("dropout2d(): Feature dropout requires at least 2 dimensions in the input", () -> Functional.dropout2d(Tensor.randn(3), 0.5, true, g));
    assertMessage("featureAlphaDropout(): Feature dropout requires at least 2 dimensions in the input",
        () -> Functional.featureAlphaDropout(Tensor.randn(3), 0.5, true, g));
  }

  private static void assertMessage(String want, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(want, e.getMessage());
  }
}
