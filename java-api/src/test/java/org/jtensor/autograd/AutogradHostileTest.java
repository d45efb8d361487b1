package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.Together;
import org.junit.jupiter.api.Test;

/**
 * Autograd used from several threads at once and by hostile hooks: concurrent backward into a
 * shared leaf, hooks that misbehave, tensors of the graph closed while it runs. PyTorch's
 * behaviour (from its documentation and test_autograd.py) is the reference where one applies.
 */
class AutogradHostileTest extends ScopedTest {
  static final int N = 4;

  static Tensor leaf(double... v) {
    return Tensor.fromArray(v).requiresGrad_();
  }

  static void assertGrad(Tensor x, double... want) {
    try (Tensor g = x.grad()) {
      if (g == null) fail("no grad");
      assertArrayEquals(want, g.toDoubleArray(), 1e-9);
    }
  }

  /** Runs body(i) on n threads released together, each in a TensorScope of its own; rethrows the first failure. */
  static void together(int n, IntConsumer body) throws Exception {
    Together.run(n, id -> {
      try (TensorScope s = TensorScope.open()) {
        body.accept(id);
      }
    });
  }

  @Test
  void concurrentBackwardOverGraphsSharingALeafSumsEveryGradient() throws Exception {
    int rounds = 40;
    try (Tensor x = leaf(1, 2, 3, 4)) {
      together(3, id -> {
        for (int r = 0; r < rounds; r++) {
          try (TensorScope s = TensorScope.open()) {
            x.mul(id + 1.0).mul(x).sum().backward();  // d/dx (k x²) = 2k x
          }
        }
      });
      double k = 2.0 * rounds * (1 + 2 + 3);
      assertGrad(x, k * 1, k * 2, k * 3, k * 4);
    }
  }

  @Test
  void concurrentBackwardOverOneRetainedGraphSumsEveryGradient() throws Exception {
    int rounds = 30;
    try (Tensor x = leaf(0.5, -1, 2); TensorScope s = TensorScope.open()) {
      Tensor loss = x.mul(x).mul(x).sum();  // 3x²
      together(3, id -> {
        for (int r = 0; r < rounds; r++) Autograd.backward(List.of(loss), null, true, false);
      });
      double k = 3.0 * 3 * rounds;
      assertGrad(x, k * 0.25, k * 1, k * 4);
    }
  }

  // ---- tensors of the graph closed, before or during backward ----

  /** Runs body on a new thread and waits for it: a close "on another thread", in a known order. */
  static void onAnotherThread(Runnable body) {
    Throwable[] failed = new Throwable[1];
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failed[0] = e;
      }
    });
    t.start();
    try {
      t.join(20_000);
    } catch (InterruptedException e) {
      throw new RuntimeException(e);
    }
    if (failed[0] != null) throw new AssertionError("the other thread failed", failed[0]);
  }

  @Test
  void savedInputsAndOutputsClosedByTheUserStillGiveTheRightGradient() {
    try (Tensor x = leaf(1, 2, 3)) {
      Tensor loss;
      try (Tensor a = x.mul(1.0); Tensor b = a.exp(); Tensor c = b.mul(a)) {  // c = x e^x, saves a, b (and exp's output)
        loss = c.sum();
      }
      try (loss) {
        loss.backward();
      }
      double[] v = {1, 2, 3}, want = new double[3];
      for (int i = 0; i < 3; i++) want[i] = Math.exp(v[i]) * (1 + v[i]);
      assertGrad(x, want);
    }
  }

  /**
   * The root closed on another thread while its backward runs: PyTorch's engine holds the graph
   * for the run, so the gradient is still right (at the least, a clear error; never a wrong value).
   */
  @Test
  void theRootAndIntermediatesClosedOnAnotherThreadDuringBackward() {
    try (Tensor x = leaf(1, 2, 3)) {
      Tensor y = x.exp();
      Tensor z = y.mul(2.0);
      Tensor loss = z.sum();
      z.registerHook(g -> {
        onAnotherThread(() -> {
          loss.close();
          z.close();
          y.close();
        });
        return null;
      });
      loss.backward();
      double[] v = {1, 2, 3}, want = new double[3];
      for (int i = 0; i < 3; i++) want[i] = 2 * Math.exp(v[i]);
      assertGrad(x, want);
    }
  }

  /** The version counter catches an in-place change of a saved tensor made on another thread mid-backward. */
  @Test
  void aSavedTensorModifiedInPlaceOnAnotherThreadDuringBackwardIsCaught() {
    try (Tensor x = leaf(1, 2, 3); TensorScope s = TensorScope.open()) {
      Tensor a = x.mul(1.0);
      Tensor b = a.detach();  // shares a's version counter
      Tensor y = a.mul(a);    // saves a
      Tensor z = y.mul(2.0);
      z.registerHook(g -> {
        onAnotherThread(() -> b.add_(1.0));
        return null;
      });
      Tensor loss = z.sum();
      IllegalStateException e = assertThrows(IllegalStateException.class, loss::backward);
      assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
      assertNull(x.grad());
    }
  }

  @Test
  void aLeafClosedOnAnotherThreadDuringBackwardTakesNoGradientAndLeaksNothing() {
    Tensor x = leaf(1, 2, 3);
    try (Tensor w = leaf(4, 5, 6); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(w);
      y.registerHook(g -> {
        onAnotherThread(x::close);
        return null;
      });
      y.sum().backward();
      assertGrad(w, 1, 2, 3);
    }
  }

  @Test
  void doubleBackwardAfterClosingTheFirstGraphsIntermediates() {
    try (Tensor x = leaf(1, 2, 3)) {
      Tensor g;
      try (Tensor y = x.mul(x); Tensor c = y.mul(x); Tensor loss = c.sum()) {  // x³
        g = Autograd.grad(loss, List.of(x), true).get(0);                     // 3x²
      }
      try (g; Tensor gs = g.sum()) {
        assertArrayEquals(new double[] {3, 12, 27}, g.toDoubleArray(), 1e-9);
        gs.backward();  // 6x
      }
      assertGrad(x, 6, 12, 18);
    }
  }

  /** torch.autograd.grad with allow_unused: an input off every path gets None; others their gradient. */
  @Test
  void gradOfAnInputWithNoPathIsNullOnlyForThatInput() {
    try (Tensor x = leaf(1, 2); Tensor u = leaf(7); TensorScope s = TensorScope.open()) {
      Tensor loss = x.mul(x).sum();
      List<Tensor> got = Autograd.grad(List.of(loss), null, List.of(u, x, u), true, false, true);
      assertNull(got.get(0));
      assertNull(got.get(2));
      assertArrayEquals(new double[] {2, 4}, got.get(1).toDoubleArray(), 0);
      got.get(1).close();
      assertThrows(IllegalArgumentException.class, () -> Autograd.grad(List.of(loss), null, List.of(x, u), true, false, false));
      assertNull(x.grad());
    }
  }

  @Test
  void setGradAndGradRacingBackwardNeverCrashOrLeak() throws Exception {
    int rounds = 60;
    try (Tensor x = leaf(1, 2, 3)) {
      together(3, id -> {
        for (int r = 0; r < rounds; r++) {
          try (TensorScope s = TensorScope.open()) {
            if (id == 0) {
              x.mul(2.0).sum().backward();
            } else if (id == 1) {
              if (r % 3 == 0) x.setGrad(null);
              else x.setGrad(Tensor.zeros(new long[] {3}, DType.FLOAT64));
            } else {
              Tensor g = x.grad();
              if (g != null) {
                double[] v = g.toDoubleArray();
                assertTrue(v.length == 3 && v[0] % 2 == 0, "a grad of 2k");
              }
            }
          }
        }
      });
      x.setGrad(null);
      x.mul(2.0).sum().backward();
      assertGrad(x, 2, 2, 2);
    }
  }

  @Test
  void requiresGradToggledOnAnotherThreadMidForward() throws Exception {
    int rounds = 80;
    try (Tensor x = leaf(1, 2, 3)) {
      together(2, id -> {
        for (int r = 0; r < rounds; r++) {
          try (TensorScope s = TensorScope.open()) {
            if (id == 0) {
              x.requiresGrad_(r % 2 == 0);
            } else {
              Tensor loss = x.mul(x).sum();
              if (loss.requiresGrad()) loss.backward();
            }
          }
        }
      });
      x.requiresGrad_(true);
      x.setGrad(null);
      x.mul(x).sum().backward();
      assertGrad(x, 2, 4, 6);
    }
  }
}
