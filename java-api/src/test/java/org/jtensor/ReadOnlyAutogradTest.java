package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.Linear;
import org.jtensor.optim.Adam;
import org.jtensor.optim.Optimizer;
import org.jtensor.optim.SGD;
import org.junit.jupiter.api.Test;

/**
 * Read-only tensors (weights memory-mapped from a file) in training: they work as inputs and
 * leaves, a refused in-place op leaves the graph and the bytes as they were, a read-only grad is
 * accumulated out of place, and optimizers and loadStateDict refuse before changing anything.
 */
class ReadOnlyAutogradTest extends ScopedTest {
  private static Tensor readOnly(float... v) {
    ByteBuffer b = ByteBuffer.allocateDirect(4 * v.length).order(ByteOrder.nativeOrder());
    b.asFloatBuffer().put(v);
    return Tensor.fromBuffer(b.asReadOnlyBuffer(), DType.FLOAT32, v.length);
  }

  @Test
  void aReadOnlyLeafGetsAWritableGradient() {
    Tensor w = readOnly(1, 2, 3).requiresGrad_();
    w.mul(w).sum().backward();
    Tensor g = w.grad();
    assertArrayEquals(new float[] {2, 4, 6}, g.toFloatArray());
    g.add_(1.0);  // the gradient has memory of its own
    assertArrayEquals(new float[] {1, 2, 3}, w.toFloatArray());
  }

  @Test
  void aRefusedInPlaceOpLeavesTheGraphAsItWas() {
    Tensor base = readOnly(1, 2, 3, 4);
    Tensor w = Tensor.ones(2).requiresGrad_();
    Tensor head = base.narrow(0, 0, 2);
    int version = base.version();
    assertThrows(IllegalStateException.class, () -> head.mul_(w));
    assertFalse(base.requiresGrad(), "the base took no history from a write that did not happen");
    assertNull(base.gradFn());
    assertNull(head.gradFn());
    assertEquals(version, base.version());
    Tensor leaf = readOnly(5, 6).requiresGrad_();
    try (GradMode.Scope off = GradMode.noGrad()) {
      assertThrows(IllegalStateException.class, () -> leaf.add_(1.0));
    }
    assertTrue(leaf.isLeaf());
    base.narrow(0, 0, 2).mul(w).sum().backward();  // the graph still works
    assertArrayEquals(new float[] {1, 2}, w.grad().toFloatArray());
    assertArrayEquals(new float[] {1, 2, 3, 4}, base.toFloatArray());
  }

  @Test
  void aReadOnlyGradIsAccumulatedOutOfPlace() {
    Tensor x = Tensor.ones(3).requiresGrad_();
    Tensor given = readOnly(10, 20, 30);
    x.setGrad(given);
    x.mul(2.0).sum().backward();
    assertArrayEquals(new float[] {12, 22, 32}, x.grad().toFloatArray(), "the sum is in grad");
    assertArrayEquals(new float[] {10, 20, 30}, given.toFloatArray(), "and the read-only tensor was not written");
    x.mul(1.0).sum().backward();
    assertArrayEquals(new float[] {13, 23, 33}, x.grad().toFloatArray(), "later accumulations go in place again");
  }

  private static void stepRefused(Optimizer opt, Tensor writable, Tensor ro) {
    float[] before = writable.toFloatArray();
    IllegalStateException e = assertThrows(IllegalStateException.class, opt::step);
    assertTrue(e.getMessage().startsWith("step(): parameter 1 ") && e.getMessage().contains("read-only"), e.getMessage());
    assertArrayEquals(before, writable.toFloatArray(), "no parameter was stepped: the step is refused before any update");
    assertArrayEquals(new float[] {1, 2}, ro.toFloatArray());
  }

  @Test
  void optimizersRefuseAReadOnlyParameterBeforeUpdatingAny() {
    Tensor writable = Tensor.ones(2).requiresGrad_();
    Tensor ro = readOnly(1, 2).requiresGrad_();
    writable.mul(ro).sum().backward();
    try (Optimizer sgd = new SGD(List.of(writable, ro), 0.1, 0.9); Optimizer adam = new Adam(List.of(writable, ro), 0.1)) {
      stepRefused(sgd, writable, ro);
      stepRefused(adam, writable, ro);
    }
  }

  @Test
  void gradientClippingRefusesAReadOnlyGradientBeforeClippingAny() {
    Tensor a = Tensor.ones(2).requiresGrad_(), b = Tensor.ones(2).requiresGrad_();
    a.setGrad(Tensor.fromArray(new float[] {30, 40}));
    b.setGrad(readOnly(3, 4));  // a gradient set from memory-mapped bytes: setGrad takes it as it is
    List<Tensor> params = List.of(a, b);
    for (Runnable clip : List.<Runnable>of(() -> org.jtensor.nn.GradClipping.clipGradNorm_(params, 1.0),
        () -> org.jtensor.nn.GradClipping.clipGradValue_(params, 1.0))) {
      IllegalStateException e = assertThrows(IllegalStateException.class, clip::run);
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
      assertArrayEquals(new float[] {30, 40}, a.grad().toFloatArray(), "the first gradient was not clipped before the refusal");
    }
  }

  @Test
  void loadStateDictReadsReadOnlySourcesAndRefusesReadOnlyDestinationsBeforeCopying() {
    try (Linear lin = new Linear(2, 1, Generator.manualSeed(3))) {
      Map<String, Tensor> state = new LinkedHashMap<>();
      state.put("weight", readOnly(0.5f, -0.5f).view(1, 2));
      state.put("bias", readOnly(2));
      lin.loadStateDict(state);  // the common case: weights memory-mapped from a file
      assertArrayEquals(new float[] {0.5f, -0.5f}, lin.weight().toFloatArray());
      assertArrayEquals(new float[] {2}, lin.bias().toFloatArray());

      Tensor frozen = readOnly(7);
      try (GradMode.Scope off = GradMode.noGrad(); Storage s = frozen.untypedStorage()) {
        lin.bias().set_(s, 0, new long[] {1}, new long[] {1});
      }
      Map<String, Tensor> next = new LinkedHashMap<>();
      next.put("weight", Tensor.fromArray(new float[] {9, 9}, 1, 2));
      next.put("bias", Tensor.fromArray(new float[] {9}));
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> lin.loadStateDict(next));
      assertTrue(e.getMessage().startsWith("loadStateDict(): bias ") && e.getMessage().contains("read-only"), e.getMessage());
      assertArrayEquals(new float[] {0.5f, -0.5f}, lin.weight().toFloatArray(), "nothing was copied");
      assertArrayEquals(new float[] {7}, lin.bias().toFloatArray());
    }
  }

  @Test
  void aTensorThatRequiresGradGivesNoByteBufferAsTorchGivesNoNumpyArray() {
    Tensor w = Tensor.ones(3).requiresGrad_();
    IllegalStateException e = assertThrows(IllegalStateException.class, w::asByteBuffer);
    assertTrue(e.getMessage().startsWith("asByteBuffer(): Can't call asByteBuffer() on a tensor that requires grad"),
        e.getMessage());
    Tensor y = w.mul(2.0);
    assertThrows(IllegalStateException.class, y::asByteBuffer, "nor does a result recorded for backward");
  }

  @Test
  void batchNormTrainingRefusesReadOnlyRunningStatsBeforeUpdatingEither() {
    Tensor x = Tensor.fromArray(new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
    Tensor mean = Tensor.zeros(2), var = readOnly(1, 1);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> org.jtensor.nn.Functional.batchNorm(x, mean, var, null, null, true, 0.1, 1e-5));
    assertTrue(e.getMessage().startsWith("batchNorm(): running_var is read-only"), e.getMessage());
    assertArrayEquals(new float[] {0, 0}, mean.toFloatArray(), "the running mean was not updated either");
    Tensor y = org.jtensor.nn.Functional.batchNorm(x, mean, var, null, null, false, 0.1, 1e-5);  // eval reads them
    assertEquals(3, y.shape()[0]);
  }

  @Test
  void aReadOnlyGradientGivenToBackwardFlowsLikeAnyOther() {
    Tensor x = Tensor.ones(2).requiresGrad_();
    Tensor seed = readOnly(1, 10);
    x.add(x).backward(seed);  // two paths into x: the engine sums the seed with itself
    assertArrayEquals(new float[] {2, 20}, x.grad().toFloatArray());
    x.backward(seed);  // a leaf root: its own gradient is the seed
    assertArrayEquals(new float[] {3, 30}, x.grad().toFloatArray());
    Tensor leaf = Tensor.zeros(2).requiresGrad_();
    leaf.backward(seed);
    leaf.mul(2.0).sum().backward();  // then accumulate into whatever the first backward left in grad
    assertArrayEquals(new float[] {3, 12}, leaf.grad().toFloatArray());
    assertArrayEquals(new float[] {1, 10}, seed.toFloatArray());
  }
}
