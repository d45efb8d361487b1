package org.jtensor.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.Autocast;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.nn.Functional;
import org.jtensor.nn.GradClipping;
import org.jtensor.nn.Linear;
import org.jtensor.ops.Autocasting;
import org.junit.jupiter.api.Test;

/**
 * Hostile use of GradScaler, Module.loadStateDict, GradClipping, the Autocast scope and its cast
 * cache, and einsum (the second half of StateHostileTest).
 */
class TrainingUtilsHostileTest extends ScopedTest {
  private static Tensor param(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32).requiresGrad_();
  }

  private static void runOnAThread(Runnable r) throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        r.run();
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    t.start();
    t.join();
    if (failure.get() instanceof AssertionError a) throw a;
    if (failure.get() != null) throw new AssertionError(failure.get());
  }

  // ---- GradScaler

  @Test
  void aFloat16ScalarLossIsScaledInFloat32AsPyTorchs() {
    // PyTorch: outputs * self._scale, a 0-dim float32 tensor: a 0-dim float16 loss promotes to float32, a 1-dim one stays float16
    GradScaler scaler = new GradScaler();
    Tensor scaled = scaler.scale(Tensor.scalar(2.0, DType.FLOAT16));
    assertEquals(DType.FLOAT32, scaled.dtype());
    assertEquals(131072.0, scaled.item());
    Tensor vector = scaler.scale(Tensor.ones(new long[] {2}, DType.FLOAT16));
    assertEquals(DType.FLOAT16, vector.dtype());
  }

  @Test
  void updateAfterAStepThatCheckedNoGradientIsRefusedAndGrowsNothing() {
    Tensor w = param(1, 2), h = Tensor.ones(new long[] {2}, DType.FLOAT16).requiresGrad_();
    try (SGD opt = new SGD(List.of(w), 0.5); SGD half = new SGD(List.of(h), 0.5)) {
      GradScaler scaler = new GradScaler(8, 2, 0.5, 1, true);
      assertThrows(IllegalStateException.class, () -> scaler.step(opt), "no gradient");
      assertThrows(IllegalStateException.class, scaler::update, "PyTorch: No inf checks were recorded prior to update.");
      assertEquals(8.0, scaler.getScale(), "a step that never ran is not a clean step");
      scaler.update(8);
      h.setGrad(Tensor.ones(new long[] {2}, DType.FLOAT16));
      assertThrows(IllegalArgumentException.class, () -> scaler.unscale_(half));
      assertThrows(IllegalStateException.class, scaler::update);
      assertEquals(8.0, scaler.getScale());
    }
  }

  @Test
  void unscaleWithAGradientItCannotWriteChangesNoGradient() {
    // unscale_ says "checked whole before any gradient changes": a read-only second gradient must not leave the first unscaled
    Tensor a = param(1, 1), b = param(1, 1);
    ByteBuffer bytes = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    bytes.putFloat(0, 8f).putFloat(4, 8f);
    try (SGD opt = new SGD(List.of(a, b), 0.5); Tensor ro = Tensor.fromBuffer(bytes.asReadOnlyBuffer(), DType.FLOAT32, 2)) {
      a.setGrad(Tensor.full(new long[] {2}, 8.0));
      b.setGrad(ro);
      GradScaler scaler = new GradScaler(8, 2, 0.5, 1, true);
      assertThrows(RuntimeException.class, () -> scaler.unscale_(opt));
      assertArrayEquals(new double[] {8, 8}, a.grad().toDoubleArray(), "a's gradient was unscaled though b's failed");
      b.setGrad(Tensor.full(new long[] {1}, 8.0).expand(2));  // two elements at one address: mul_ refuses it
      assertThrows(IllegalArgumentException.class, () -> scaler.unscale_(opt));
      assertArrayEquals(new double[] {8, 8}, a.grad().toDoubleArray(), "a's gradient was unscaled though b's failed");
    }
  }

  @Test
  void aNanInTheLastGradientSkipsTheWholeStep() {
    Tensor a = param(1, 1), b = param(1, 1);
    try (Adam opt = new Adam(List.of(a, b), 0.5)) {
      GradScaler scaler = new GradScaler(4, 2, 0.5, 1, true);
      a.setGrad(Tensor.full(new long[] {2}, 4.0));
      b.setGrad(Tensor.fromArray(new float[] {4, Float.NaN}));
      scaler.unscale_(opt);
      assertFalse(scaler.step(opt));
      assertArrayEquals(new double[] {1, 1}, a.toDoubleArray());
      assertTrue(opt.stateDict().get("state") instanceof Map<?, ?> s && s.isEmpty(), "no state: no step");
      scaler.update();
      assertEquals(2.0, scaler.getScale());
    }
  }

  // ---- Module.loadStateDict

  @Test
  void aStateDictWithAMetaOrClosedTensorLoadsNothing() {
    try (Linear lin = new Linear(2, 2)) {
      double[] weight = lin.namedParameters().get("weight").toDoubleArray();
      Tensor closed = Tensor.zeros(2);
      closed.close();
      for (Tensor bias : new Tensor[] {Tensor.zeros(new long[] {2}, DType.FLOAT32, Device.META), closed}) {
        Map<String, Tensor> sd = new LinkedHashMap<>();
        sd.put("weight", Tensor.full(new long[] {2, 2}, 7.0));
        sd.put("bias", bias);
        RuntimeException e = assertThrows(RuntimeException.class, () -> lin.loadStateDict(sd));
        assertTrue(e.getMessage().contains("bias"), e.getMessage());
        assertArrayEquals(weight, lin.namedParameters().get("weight").toDoubleArray(), 0, "weight loaded though bias failed");
      }
      Map<String, Tensor> own = lin.stateDict();
      lin.loadStateDict(own);  // into itself
      own.values().forEach(Tensor::close);
      assertArrayEquals(weight, lin.namedParameters().get("weight").toDoubleArray(), 0);
    }
  }

  // ---- GradClipping

  @Test
  void clippingMixedPrecisionGradientsTakesTheNormInTheWiderDtype() {
    // PyTorch stacks the per-dtype norms, which promotes: a float32 norm of 1e5 is not cast to float16 (inf) first
    Tensor a = Tensor.zeros(new long[] {2}, DType.FLOAT16).requiresGrad_(), b = param(0, 0);
    a.setGrad(Tensor.fromArray(new double[] {1, 0}).to(DType.FLOAT16));
    b.setGrad(Tensor.fromArray(new float[] {1e5f, 0}));
    Tensor total = GradClipping.clipGradNorm_(List.of(a, b), 1.0);
    assertEquals(DType.FLOAT32, total.dtype());
    assertEquals(1e5, total.item(), 1);
    assertArrayEquals(new double[] {1, 0}, b.grad().toDoubleArray(), 1e-5);
    assertEquals(1e-5, a.grad().toDoubleArray()[0], 1e-7);
    Tensor none = GradClipping.clipGradNorm_(List.of(param(1)), 1.0);
    assertEquals(DType.FLOAT32, none.dtype(), "torch.tensor(0.0)");
  }

  // ---- Autocast

  @Test
  void scopesClosedOutOfOrderAreRefusedAndLeaveTheThreadAsItWas() throws InterruptedException {
    runOnAThread(() -> {  // a thread of its own: a broken scope stack must not leak into the other tests
      Autocast outer = Autocast.enable(Device.CPU, DType.BFLOAT16);
      Autocast inner = Autocast.disable(Device.CPU);
      assertThrows(IllegalStateException.class, outer::close, "innermost first, as TensorScope");
      inner.close();
      outer.close();
      assertFalse(Autocast.isEnabled(Device.CPU), "the thread is left with autocast on after every scope closed");
    });
  }

  @Test
  void aScopeClosedOnAnotherThreadIsRefusedAndTheOwnerStillClosesIt() throws InterruptedException {
    Autocast a = Autocast.enable(Device.CPU, DType.BFLOAT16);
    try {
      runOnAThread(() -> {
        assertThrows(IllegalStateException.class, a::close);
        assertFalse(Autocast.isEnabled(Device.CPU), "the state is per thread");
      });
      assertTrue(Autocast.isEnabled(Device.CPU));
    } finally {
      a.close();
    }
    assertFalse(Autocast.isEnabled(Device.CPU));
  }

  @Test
  void aCachedParameterClosedOrWrittenThroughAnAliasInsideTheScope() {
    Tensor x = Tensor.ones(2, 3), w = Tensor.ones(4, 3).requiresGrad_(), v = Tensor.ones(4, 3).requiresGrad_();
    try (Autocast ac = Autocast.enable(Device.CPU, DType.BFLOAT16)) {
      Functional.linear(x, w, null);
      Functional.linear(x, v, null);
      assertEquals(2, Autocasting.cachedCasts());
      w.close();  // the cache's cast is freed with the scope (ScopedTest checks the bytes)
      try (Tensor alias = v.detach()) {
        alias.mul_(2);  // the same version counter: the cached cast is stale
      }
      assertArrayEquals(new double[] {6, 6, 6, 6, 6, 6, 6, 6}, Functional.linear(x, v, null).toDoubleArray(), 0);
      try (Tensor state = v.detach()) {
        state.copy_(Tensor.full(new long[] {4, 3}, 3.0));
      }
      assertArrayEquals(new double[] {9, 9, 9, 9, 9, 9, 9, 9}, Functional.linear(x, v, null).toDoubleArray(), 0);
    }
    assertEquals(0, Autocasting.cachedCasts());
  }

  // ---- einsum

  @Test
  void malformedEinsumEquationsAreRefusedNamingEinsum() {
    Tensor a = Tensor.ones(2, 3), s = Tensor.scalar(5.0);
    String[] bad = {"ij->->ij", "i-j", "i.j", "....ij", "ij->..i", "ij->i...j...", "é", "ij,", "ij->k", "iij"};
    for (String eq : bad) {
      String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum(eq, a)).getMessage();
      assertTrue(m.startsWith("einsum(): "), eq + ": " + m);
    }
    assertEquals(5.0, Tensor.einsum("", s).item());
    assertEquals(5.0, Tensor.einsum("->", s).item());
    assertEquals(6.0, Tensor.einsum("ij->", a).item());
    assertEquals(6.0, Tensor.einsum("ij,ij->", a, a).item(), "one operand twice");
    Tensor closed = Tensor.ones(3);
    closed.close();
    String m = assertThrows(IllegalStateException.class, () -> Tensor.einsum("i,i->", a.select(0, 0), closed)).getMessage();
    assertTrue(m.startsWith("einsum(): tensor is closed"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i", (Tensor[]) null)).getMessage();
    assertTrue(m.startsWith("einsum(): "), m);
  }

  @Test
  void anEinsumWhoseResultCannotBeCountedFailsCleanly() {
    Tensor x = Tensor.ones(1).expand(1L << 33);
    // a clear refusal, though it names the bmm einsum runs, not einsum (PyTorch's device message names its bmm too)
    String m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i,j->ij", x, x)).getMessage();
    assertTrue(m.contains("overflows"), m);
    Tensor meta = Tensor.ones(new long[] {3}, DType.FLOAT32, Device.META);
    m = assertThrows(IllegalArgumentException.class, () -> Tensor.einsum("i,i->", Tensor.ones(3), meta)).getMessage();
    assertTrue(m.contains("same device"), m);
  }
}
