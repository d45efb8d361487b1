package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of autograd's functional API (Autograd.grad, backward and their options,
 * hooks, setData under hooks) against PyTorch 2.13 on the CPU; each test is named after the bug
 * it caught, and PyTorch's answer is in its comment.
 */
class AutogradFunctionalHostileTest extends ScopedTest {
  static Tensor leaf(double... v) {
    return Tensor.fromArray(v).requiresGrad_();
  }

  static void assertGrad(Tensor x, double... want) {
    try (Tensor g = x.grad()) {
      if (g == null) fail("no grad");
      assertArrayEquals(want, g.toDoubleArray(), 0.0);
    }
  }

  static void assertMessage(Throwable e, String part) {
    assertTrue(e.getMessage() != null && e.getMessage().contains(part), e.getMessage());
  }

  /**
   * PyTorch's validate_outputs casts a root's gradient to the root's dtype first:
   * grad(x * 0.1, x, ones(float32)) with x float64 is exactly 0.1, in float64. It flowed in
   * float32 (0.10000000149011612), and grad(y, y, ones(float32)) came back float32.
   */
  @Test
  void aGradOutputOfAnotherDtypeWasComputedInItsOwnDtype() {
    Tensor x = leaf(1, 2, 3);
    Tensor g32 = Tensor.ones(new long[] {3}, DType.FLOAT32);
    Tensor gi = Tensor.ones(new long[] {3}, DType.INT64);
    List<Tensor> r = Autograd.grad(List.of(x.mul(0.1)), List.of(g32), List.of(x), false, false, false);
    assertEquals(DType.FLOAT64, r.get(0).dtype());
    assertArrayEquals(new double[] {0.1, 0.1, 0.1}, r.get(0).toDoubleArray(), 0.0);
    r = Autograd.grad(List.of(x.mul(0.1)), List.of(gi), List.of(x), false, false, false);
    assertArrayEquals(new double[] {0.1, 0.1, 0.1}, r.get(0).toDoubleArray(), 0.0);
    Tensor y = x.mul(2.0);
    r = Autograd.grad(List.of(y), List.of(g32), List.of(y), false, false, false);
    assertEquals(DType.FLOAT64, r.get(0).dtype());
    x.mul(0.1).backward(g32);
    assertGrad(x, 0.1, 0.1, 0.1);
    assertEquals(1.0, g32.toDoubleArray()[0]);  // the caller's tensor is untouched and open
    // Under createGraph the cast is recorded: d(grad)/dv is [2, 4, 6] in float32, as PyTorch's.
    Tensor v = Tensor.ones(new long[] {3}, DType.FLOAT32).requiresGrad_();
    Tensor g = Autograd.grad(List.of(x.mul(x)), List.of(v), List.of(x), true, true, false).get(0);
    assertEquals(DType.FLOAT64, g.dtype());
    Tensor gv = Autograd.grad(List.of(g.sum()), null, List.of(v), false, false, false).get(0);
    assertEquals(DType.FLOAT32, gv.dtype());
    assertArrayEquals(new double[] {2, 4, 6}, gv.toDoubleArray(), 0.0);
  }

  /** A hook seeing a float32 gradient on a float64 tensor (PyTorch's hook sees torch.float64). */
  @Test
  void aGradOutputOfAnotherDtypeReachedHooksInItsOwnDtype() {
    Tensor x = leaf(1, 2, 3);
    Tensor y = x.mul(2.0);
    DType[] seen = new DType[1];
    y.registerHook(g -> {
      seen[0] = g.dtype();
      return null;
    });
    y.backward(Tensor.ones(new long[] {3}, DType.FLOAT32));
    assertEquals(DType.FLOAT64, seen[0]);
    assertGrad(x, 2, 2, 2);
  }

  /**
   * PyTorch keeps a leaf's hooks across {@code x.data = other} (same or another size): the hook
   * lived on the accumulator setData threw away, so the gradient came back unhooked (2, not 20).
   */
  @Test
  void setDataDroppedTheLeafsHooks() {
    Tensor x = leaf(1, 1, 1);
    x.registerHook(g -> g.mul(10.0));
    x.mul(2.0).sum().backward();
    assertGrad(x, 20, 20, 20);
    x.setGrad(null);
    x.setData(Tensor.fromArray(new double[] {5, 5, 5}));
    x.mul(2.0).sum().backward();
    assertGrad(x, 20, 20, 20);
    x.setGrad(null);
    x.setData(Tensor.ones(new long[] {5}, DType.FLOAT64));
    x.mul(2.0).sum().backward();
    assertGrad(x, 20, 20, 20, 20, 20);
  }

  /** PyTorch 2.13: "The differentiated Tensor at index 1 appears to not have been used in the graph." */
  @Test
  void anUnusedInputWasNotNamedByItsIndex() {
    Tensor x = leaf(1, 2, 3);
    Tensor w = leaf(1, 2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Autograd.grad(List.of(x.mul(2.0).sum()), null, List.of(x, w), false, false, false));
    assertMessage(e, "grad(): The differentiated Tensor at index 1 appears to not have been used in the graph");
    e = assertThrows(IllegalArgumentException.class,
        () -> Autograd.grad(List.of(x.mul(2.0).sum()), null, List.of(), false, false, false));
    assertMessage(e, "`inputs` argument to `grad()` cannot be empty");
  }

  /**
   * PyTorch's retains_grad hook adds out of place (grad = grad + new_grad): y.grad taken after a
   * first backward keeps [4, 8, 12] through the second. It was summed in place into [8, 16, 24].
   */
  @Test
  void aRetainedGradTakenEarlierChangedUnderASecondBackward() {
    Tensor x = leaf(1, 2, 3);
    Tensor y = x.mul(2.0);
    y.retainGrad();
    Tensor z = y.mul(y).sum();
    z.backward(null, true, false);
    Tensor first = y.grad();
    z.backward();
    assertArrayEquals(new double[] {4, 8, 12}, first.toDoubleArray(), 0.0);
    assertGrad(y, 8, 16, 24);
    assertGrad(x, 16, 32, 48);
  }

  /**
   * One hook registered twice, and the first handle removed twice: PyTorch removes that
   * registration once and the other still runs (x.grad 2, leaf or not). The removal took the hook
   * by equality, so the second call removed the other registration too (1).
   */
  @Test
  void aHandleRemovedTwiceRemovedAnotherRegistrationOfTheSameHook() {
    java.util.function.UnaryOperator<Tensor> twice = g -> g.mul(2.0);
    Tensor x = leaf(1, 2, 3);
    RemovableHandle h1 = x.registerHook(twice);
    x.registerHook(twice);
    h1.remove();
    h1.remove();
    x.mul(1.0).sum().backward();
    assertGrad(x, 2, 2, 2);
    Tensor w = leaf(1, 2, 3);
    Tensor y = w.mul(1.0);
    RemovableHandle k1 = y.registerHook(twice);
    y.registerHook(twice);
    k1.remove();
    k1.close();
    y.sum().backward();
    assertGrad(w, 2, 2, 2);
  }

  /**
   * PyTorch: grad((x * x).sum(), [x, x]) is ([2, 4, 6], [2, 4, 6]), one tensor twice; a non-leaf
   * input listed twice likewise. The engine kept the one handle twice in its scope and threw
   * "keep(): the tensor was not created in this scope".
   */
  @Test
  void theSameInputListedTwiceThrewAnUnrelatedError() {
    Tensor x = leaf(1, 2, 3);
    List<Tensor> r = Autograd.grad(List.of(x.mul(x).sum()), null, List.of(x, x), false, false, false);
    assertArrayEquals(new double[] {2, 4, 6}, r.get(0).toDoubleArray(), 0.0);
    assertArrayEquals(new double[] {2, 4, 6}, r.get(1).toDoubleArray(), 0.0);
    Tensor y = x.mul(2.0);
    r = Autograd.grad(List.of(y.mul(y).sum()), null, List.of(y, x, y), false, false, false);
    assertArrayEquals(new double[] {4, 8, 12}, r.get(0).toDoubleArray(), 0.0);
    assertArrayEquals(new double[] {8, 16, 24}, r.get(1).toDoubleArray(), 0.0);
    assertArrayEquals(new double[] {4, 8, 12}, r.get(2).toDoubleArray(), 0.0);
  }

  /**
   * PyTorch's gradient layout contract: a dense leaf's first grad takes the leaf's strides (a
   * transposed leaf's grad is (1, 2), a contiguous leaf's (3, 1) whatever layout the incoming
   * gradient has), and a retained grad is contiguous. The grad kept the incoming layout: [3, 1]
   * for the transposed leaf, [1, 2] for the contiguous one and the retained grad.
   */
  @Test
  void aLeafsFirstGradDidNotTakeTheLeafsLayout() {
    Tensor a = Tensor.ones(new long[] {3, 2}, DType.FLOAT64).t().detach().requiresGrad_();
    a.mul(2.0).sum().backward();
    try (Tensor g = a.grad()) {
      assertArrayEquals(new long[] {1, 2}, g.stride());
      assertArrayEquals(new double[] {2, 2, 2, 2, 2, 2}, g.toDoubleArray(), 0.0);
    }
    Tensor b = Tensor.ones(new long[] {2, 3}, DType.FLOAT64).requiresGrad_();
    Tensor y = b.mul(1.0);
    y.retainGrad();
    Tensor gt = Tensor.fromArray(new double[][] {{1, 2}, {3, 4}, {5, 6}}).t();
    y.backward(gt);
    for (Tensor t : new Tensor[] {b, y}) {
      try (Tensor g = t.grad()) {
        assertArrayEquals(new long[] {3, 1}, g.stride());
        assertArrayEquals(new double[] {1, 3, 5, 2, 4, 6}, g.toDoubleArray(), 0.0);
      }
    }
  }

  /** A closed input or gradient was refused in the words of an internal call ("requiresGrad(): tensor is closed", "shape(): ..."). */
  @Test
  void aClosedInputOrGradientWasRefusedNamingAnInternalCall() {
    Tensor x = leaf(1, 2, 3);
    Tensor w = leaf(4, 5, 6);
    w.close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Autograd.grad(List.of(x.mul(2.0).sum()), null, List.of(x, w), false, false, false));
    assertMessage(e, "grad(): inputs[1] is closed");
    Tensor g = Tensor.ones(new long[] {3}, DType.FLOAT64);
    g.close();
    Tensor y = x.mul(2.0);
    e = assertThrows(IllegalStateException.class, () -> y.backward(g));
    assertMessage(e, "backward(): the gradient for output 0 is closed");
    e = assertThrows(IllegalStateException.class, () -> Autograd.grad(List.of(y), List.of(g), List.of(x), false, false, false));
    assertMessage(e, "grad(): the gradient for output 0 is closed");
    y.sum().backward();  // nothing was freed or held by the refusals
    assertGrad(x, 2, 2, 2);
  }

  /**
   * PyTorch adds a later gradient in place whenever grad mode is off, a grad that requires grad
   * too: after x.grad = t (t requiring grad) a backward leaves x.grad t, now [2, 2]; after a
   * createGraph backward, a plain one updates the same grad ([9, 24, 45] in the handle taken
   * before). Both were summed out of place: t stayed [0, 0] and the earlier handle [3, 12, 27].
   */
  @Test
  void aGradThatRequiresGradWasReplacedInsteadOfAddedInPlace() {
    Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_();
    Tensor t = Tensor.zeros(new long[] {2}, DType.FLOAT64).requiresGrad_();
    x.setGrad(t);
    x.mul(2.0).sum().backward();
    assertArrayEquals(new double[] {2, 2}, t.toDoubleArray(), 0.0);
    assertGrad(x, 2, 2);
    Tensor a = leaf(1, 2, 3);
    a.pow(3.0).sum().backward(null, false, true);
    Tensor first = a.grad();
    assertTrue(first.requiresGrad());
    first.sum().backward();
    assertArrayEquals(new double[] {9, 24, 45}, first.toDoubleArray(), 0.0);
    assertGrad(a, 9, 24, 45);
  }
}
