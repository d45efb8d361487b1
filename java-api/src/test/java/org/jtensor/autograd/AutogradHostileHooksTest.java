package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/**
 * Hostile hooks: hooks that change a gradient's size or dtype, throw, close what they get,
 * re-enter backward, or are removed on another thread mid-run; retainGrad beside them. PyTorch's
 * behaviour (engine.cpp, test_autograd.py) is the reference.
 */
class AutogradHostileHooksTest extends ScopedTest {
  static Tensor leaf(double... v) {
    return AutogradHostileTest.leaf(v);
  }

  static void assertGrad(Tensor x, double... want) {
    AutogradHostileTest.assertGrad(x, want);
  }

  static void together(int n, java.util.function.IntConsumer body) throws Exception {
    AutogradHostileTest.together(n, body);
  }

  /** PyTorch: "hook 'hook' has changed the size of value"; summing the bigger tensor down is a silent wrong gradient. */
  @Test
  void aHookReturningAnotherShapeIsRefused() {
    try (Tensor x = leaf(1, 2, 3); TensorScope s = TensorScope.open()) {
      x.registerHook(g -> Tensor.ones(new long[] {2, 3}, DType.FLOAT64));
      Tensor loss = x.mul(2.0).sum();
      RuntimeException e = assertThrows(RuntimeException.class, loss::backward);
      assertTrue(e.getMessage().contains("size"), e.getMessage());
      assertNull(x.grad());
    }
  }

  @Test
  void aHookOnANonLeafReturningAnotherShapeIsRefused() {
    try (Tensor x = leaf(1, 2, 3); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0);
      y.registerHook(g -> Tensor.ones(new long[] {2, 3}, DType.FLOAT64));
      Tensor loss = y.sum();
      assertThrows(RuntimeException.class, loss::backward);
      assertNull(x.grad());
    }
  }

  /** PyTorch: "hook 'hook' has changed the type of value (was torch.DoubleTensor got torch.FloatTensor)". */
  @Test
  void aHookReturningAnotherDtypeIsRefused() {
    try (Tensor x = leaf(1, 2, 3); TensorScope s = TensorScope.open()) {
      x.registerHook(g -> g.to(DType.FLOAT32));
      Tensor loss = x.mul(2.0).sum();
      RuntimeException e = assertThrows(RuntimeException.class, loss::backward);
      assertTrue(e.getMessage().contains("type"), e.getMessage());
      assertNull(x.grad());
    }
  }

  /** PyTorch runs a node's retains_grad hook after its tensor hooks: grad() holds what the hooks made. */
  @Test
  void retainGradSeesWhatTheHooksReturn() {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(3.0);
      y.retainGrad();
      y.registerHook(g -> g.mul(2.0));
      y.sum().backward();
      assertGrad(y, 2, 2);
      assertGrad(x, 6, 6);
    }
  }

  /** test_autograd.py test_retain_grad_inplace: the retains_grad hook moves to the new gradFn. */
  @Test
  void retainGradFollowsAnInPlaceOp() {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor a = x.mul(1.0);
      a.retainGrad();
      a.mul_(2.0);
      a.sum().backward();
      assertGrad(a, 1, 1);
      assertGrad(x, 2, 2);
    }
  }

  /** The same through a view: the base's history becomes CopySlices and the view's a strided view of it. */
  @Test
  void retainGradFollowsAnInPlaceOpOnAView() {
    try (Tensor x = leaf(1, 2, 3, 4); TensorScope s = TensorScope.open()) {
      Tensor b = x.mul(1.0);
      Tensor v = b.narrow(0, 0, 2);
      b.retainGrad();
      v.retainGrad();
      v.mul_(2.0);
      b.sum().backward();
      assertGrad(b, 1, 1, 1, 1);
      assertGrad(x, 2, 2, 1, 1);
      assertNull(v.grad());  // v is not on the path from b.sum() in PyTorch either: b's CopySlices does not pass through v's node
    }
  }

  /** retainGrad called on two threads at once must register one hook: else grad() is twice the gradient. */
  @Test
  void retainGradOnTwoThreadsAtOnceRetainsOnce() throws Exception {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      for (int round = 0; round < 150; round++) {
        try (TensorScope r = TensorScope.open()) {
          Tensor y = x.mul(3.0);
          together(2, id -> y.retainGrad());
          y.sum().backward();
          assertGrad(y, 1, 1);
        }
      }
    }
  }

  @Test
  void aThrowingHookFailsBackwardLeavesGradsAloneAndLeaksNothing() {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor y = x.exp();
      Tensor z = y.mul(y);
      RemovableHandle h = y.registerHook(g -> {
        throw new IllegalArgumentException("hook says no");
      });
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Autograd.backward(List.of(z.sum()), null, true, false));
      assertEquals("hook says no", e.getMessage());
      assertNull(x.grad());
      h.remove();
      z.sum().backward();  // the retained graph still works
      try (Tensor want = x.mul(2.0).exp().mul(2.0)) {
        assertGrad(x, want.toDoubleArray());
      }
    }
  }

  @Test
  void aHookThatClosesItsGradientGivesAClearError() {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor y = x.exp();
      y.registerHook(g -> {
        g.close();
        return null;
      });
      Tensor loss = y.sum();
      IllegalStateException e = assertThrows(IllegalStateException.class, loss::backward);
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
      assertNull(x.grad());
    }
  }

  @Test
  void aHookThatClosesItsGradientAndReturnsANewOneWorks() {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(x);
      y.registerHook(g -> {
        Tensor r = g.mul(3.0);
        g.close();
        return r;
      });
      y.sum().backward();
      assertGrad(x, 6, 12);
    }
  }

  /** A hook that registers hooks, removes itself and runs a backward of its own, on the same thread. */
  @Test
  void aReentrantHookWorks() {
    try (Tensor x = leaf(1, 2); Tensor w = leaf(5); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(x);
      RemovableHandle[] self = new RemovableHandle[1];
      self[0] = y.registerHook(g -> {
        self[0].remove();
        x.registerHook(gx -> gx.add(1.0));
        // the engine runs hooks with grad mode as createGraph (off here), as PyTorch's GraphTask does
        try (TensorScope inner = TensorScope.open(); GradMode.Scope on = GradMode.enableGrad()) {
          w.mul(w).sum().backward();  // a backward inside a backward
        }
        return null;
      });
      y.sum().backward();
      assertGrad(x, 3, 5);
      assertGrad(w, 10);
    }
  }

  /** A hook removed on another thread before its node runs does not run (PyTorch reads the hooks as the node starts). */
  @Test
  void aHookRemovedOnAnotherThreadDuringBackwardDoesNotRun() throws Exception {
    try (Tensor x = leaf(1, 2); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0);
      RemovableHandle onX = x.registerHook(g -> g.mul(100.0));
      CountDownLatch removed = new CountDownLatch(1);
      Thread remover = new Thread(() -> {
        onX.remove();
        removed.countDown();
      });
      y.registerHook(g -> {
        remover.start();
        try {
          assertTrue(removed.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          throw new RuntimeException(e);
        }
        return null;
      });
      y.sum().backward();
      remover.join();
      assertGrad(x, 2, 2);
    }
  }
}
