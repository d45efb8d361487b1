package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jtensor.Autocast;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.PtFixture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GradScaler against PyTorch 2.13's torch.amp.GradScaler (resources/amp/fixtures.pt from
 * make_fixtures.py beside it): the same loop over the same data, two steps with infinite inputs
 * among them, gives PyTorch's scales, parameters and state; a float16 gradient that underflows to
 * 0 without scaling survives with it; misuse is refused with PyTorch's messages, nothing changed.
 */
class GradScalerTest extends ScopedTest {
  @RegisterExtension
  static final PtFixture fixtures = new PtFixture("/amp/fixtures.pt");
  @TempDir Path dir;

  private static Tensor f(String name) {
    return fixtures.tensor(name);
  }

  private static void assertClose(Tensor want, Tensor got, String what) {
    double[] w = want.toDoubleArray(), g = got.toDoubleArray();
    assertEquals(w.length, g.length, what);
    for (int i = 0; i < w.length; i++) assertTrue(Math.abs(w[i] - g[i]) <= 1e-6 * (1 + Math.abs(w[i])), what + "[" + i + "]: " + w[i] + " vs " + g[i]);
  }

  @Test
  void pyTorchsLoopGivesPyTorchsScalesParametersAndState() {
    Tensor w = f("w0").clone().requiresGrad_(), b = f("b0").clone().requiresGrad_();
    try (SGD opt = new SGD(List.of(w, b), 0.1, 0.9)) {
      GradScaler scaler = new GradScaler(1024, 2, 0.5, 3, true);
      double[] scales = f("scales").toDoubleArray();
      int skipped = 0;
      for (int i = 0; i < 8; i++) {
        opt.zeroGrad();
        Tensor loss = Functional.mseLoss(f("x").select(0, i).matmul(w.t()).add(b), f("y").select(0, i));
        assertEquals(scales[i], scaler.getScale(), "scale before step " + i);
        scaler.scale(loss).backward();
        scaler.unscale_(opt);
        if (i == 0) assertClose(f("grad0"), w.grad(), "the gradient unscale_ leaves");
        if (!scaler.step(opt)) skipped++;
        scaler.update();
        assertClose(f("w").select(0, i), w, "weight after step " + i);
        assertClose(f("b").select(0, i), b, "bias after step " + i);
      }
      assertEquals(2, skipped, "steps 2 and 5 have infinite gradients");
      @SuppressWarnings("unchecked")
      Map<String, Object> torchState = (Map<String, Object>) fixtures.get("state");
      Map<String, Object> mine = scaler.stateDict();
      assertEquals(torchState.keySet(), mine.keySet());
      for (String k : mine.keySet()) assertEquals(((Number) torchState.get(k)).doubleValue(), ((Number) mine.get(k)).doubleValue(), k);
    }
  }

  @Test
  void aFloat16GradientThatUnderflowsSurvivesScaling() {
    Tensor x = Tensor.randn(new long[] {8, 16}, new Generator(3));
    Tensor w0 = Tensor.randn(new long[] {16, 4}, new Generator(4));
    double tiny = 1e-9;  // the loss's gradient: below float16's smallest subnormal (6e-8)
    Tensor want = x.t().matmul(Tensor.full(new long[] {8, 4}, tiny));  // the float32 gradient: xᵀ · (tiny everywhere)
    Tensor unscaled = gradUnderAutocast(x, w0, tiny, null);
    assertEquals(0.0, unscaled.abs().max().item(), "without scaling the float16 gradient underflows to 0");
    Tensor scaled = gradUnderAutocast(x, w0, tiny, new GradScaler());
    double err = scaled.sub(want).abs().max().item(), scale = want.abs().max().item();
    assertTrue(err <= 2e-3 * scale, "scaled: largest error " + err + " against gradients up to " + scale);
  }

  /** w's gradient after one step of matmul under float16 autocast, loss = sum(x·w) · tiny, through scaler (or none). */
  private static Tensor gradUnderAutocast(Tensor x, Tensor w0, double tiny, GradScaler scaler) {
    Tensor w = w0.clone().requiresGrad_();
    try (SGD opt = new SGD(List.of(w), 0.0)) {
      Tensor h;
      try (Autocast a = Autocast.enable(Device.CPU, DType.FLOAT16)) {
        h = x.matmul(w);
      }
      assertEquals(DType.FLOAT16, h.dtype());
      Tensor loss = h.to(DType.FLOAT32).sum().mul(tiny);
      if (scaler == null) {
        loss.backward();
      } else {
        scaler.scale(loss).backward();
        scaler.unscale_(opt);
        assertTrue(scaler.step(opt), "finite gradients: the step runs");
        scaler.update();
      }
      return w.grad();
    }
  }

  @Test
  void misuseIsRefusedWithPyTorchsMessages() {
    Tensor w = Tensor.ones(new long[] {3}).requiresGrad_();
    try (SGD opt = new SGD(List.of(w), 0.5)) {
      GradScaler scaler = new GradScaler(8, 2, 0.5, 2, true);
      assertEquals("GradScaler.update(): No inf checks were recorded prior to update.",
          assertThrows(IllegalStateException.class, scaler::update).getMessage());
      assertThrows(IllegalStateException.class, () -> scaler.step(opt), "no gradient at all");
      scaler.update(8);  // forget that attempt
      scaler.scale(w.sum()).backward();
      scaler.unscale_(opt);
      assertArrayEquals(new double[] {1, 1, 1}, w.grad().toDoubleArray(), "8 · 1 / 8");
      assertEquals("unscale_() has already been called on this optimizer since the last update().",
          assertThrows(IllegalStateException.class, () -> scaler.unscale_(opt)).getMessage());
      assertTrue(scaler.step(opt));
      assertArrayEquals(new double[] {0.5, 0.5, 0.5}, w.toDoubleArray());
      assertEquals("step() has already been called since the last update().",
          assertThrows(IllegalStateException.class, () -> scaler.step(opt)).getMessage());
      assertEquals("unscale_() is being called after step().", assertThrows(IllegalStateException.class, () -> scaler.unscale_(opt)).getMessage());
      scaler.update();
      assertEquals(8.0, scaler.getScale(), "one clean step of the two that grow it");

      // an infinite gradient: the step is skipped, the parameter unchanged, the scale halved
      opt.zeroGrad();
      scaler.scale(w.mul(Double.POSITIVE_INFINITY).sum()).backward();
      assertFalse(scaler.step(opt));
      assertArrayEquals(new double[] {0.5, 0.5, 0.5}, w.toDoubleArray());
      scaler.update();
      assertEquals(4.0, scaler.getScale());
    }
    Tensor h = Tensor.ones(new long[] {2}, DType.FLOAT16).requiresGrad_(), f32 = Tensor.ones(new long[] {2}).requiresGrad_();
    try (SGD opt = new SGD(List.of(f32, h), 0.5)) {
      GradScaler scaler = new GradScaler();
      scaler.scale(h.to(DType.FLOAT32).sum().add(f32.sum())).backward();
      assertEquals("GradScaler.unscale_(): Attempting to unscale FP16 gradients.",
          assertThrows(IllegalArgumentException.class, () -> scaler.unscale_(opt)).getMessage());
      assertArrayEquals(new double[] {65536, 65536}, f32.grad().toDoubleArray(), "nothing unscaled: checked whole first");
    }
    assertThrows(IllegalArgumentException.class, () -> new GradScaler(1, 1.0, 0.5, 1, true), "growth factor must be > 1");
    assertThrows(IllegalArgumentException.class, () -> new GradScaler(1, 2, 1.0, 1, true), "backoff factor must be < 1");
  }

  @Test
  void disabledItPassesThroughAndItsStateRoundTripsThroughPt() throws Exception {
    Tensor w = Tensor.ones(new long[] {2}).requiresGrad_();
    try (SGD opt = new SGD(List.of(w), 1.0)) {
      GradScaler off = new GradScaler(1024, 2, 0.5, 10, false);
      Tensor loss = w.sum();
      Tensor same = off.scale(loss);
      assertEquals(loss.item(), same.item());
      same.backward();
      assertTrue(off.step(opt));
      assertArrayEquals(new double[] {0, 0}, w.toDoubleArray());
      assertEquals(1.0, off.getScale());
      assertTrue(off.stateDict().isEmpty());
      assertThrows(IllegalStateException.class, () -> off.loadStateDict(Map.of("scale", 2.0)));
    }
    GradScaler on = new GradScaler(512, 3, 0.25, 7, true);
    Path file = dir.resolve("scaler.pt");
    Tensors.saveObject(on.stateDict(), file);
    @SuppressWarnings("unchecked")
    Map<String, Object> back = (Map<String, Object>) Tensors.loadObject(file);
    GradScaler other = new GradScaler();
    other.loadStateDict(back);
    assertEquals(on.stateDict(), other.stateDict());
    @SuppressWarnings("unchecked")
    Map<String, Object> torchState = (Map<String, Object>) fixtures.get("state");
    other.loadStateDict(torchState);
    assertEquals(256.0, other.getScale(), "PyTorch's state: scale 256 after two backoffs from 1024");
    assertEquals("GradScaler.loadStateDict(): The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler.",
        assertThrows(IllegalArgumentException.class, () -> other.loadStateDict(Map.of())).getMessage());
    assertThrows(IllegalArgumentException.class, () -> other.loadStateDict(Map.of("scale", 2.0)), "a missing key names itself");
    assertEquals(256.0, other.getScale(), "a refused state changes nothing");
  }
}
