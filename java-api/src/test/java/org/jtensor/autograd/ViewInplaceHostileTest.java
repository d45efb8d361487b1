package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Hostile in-place ops on views and bases under autograd: which history a view sees after its base
 * (or a sibling) changed, which views PyTorch refuses to change in place. Every expectation was
 * checked against PyTorch 2.13 (noted beside each).
 */
class ViewInplaceHostileTest extends ScopedTest {
  static Tensor leaf(double... v) {
    return Tensor.fromArray(v).requiresGrad_();
  }

  static void assertGrad(Tensor x, double... want) {
    AutogradHostileTest.assertGrad(x, want);
  }

  /** x still holds its values: a refused op wrote nothing. */
  static void assertUnchanged(Tensor x) {
    assertArrayEquals(new double[] {1, 1, 1, 1}, x.toDoubleArray(), 0);
  }

  /** a = ones(4); x = a.clone(); v = x[:2]; x.mul_(3); v.sum().backward(): a.grad = [3, 3, 0, 0] (v's grad_fn AsStridedBackward0). */
  @Test
  void anInPlaceOpOnTheBaseReachesAViewMadeBefore() {
    Tensor a = leaf(1, 1, 1, 1);
    Tensor x = a.clone();
    Tensor v = x.narrow(0, 0, 2);
    x.mul_(3.0);
    assertEquals("AsStridedBackward0", v.gradFn().name());
    v.sum().backward();
    assertGrad(a, 3, 3, 0, 0);
  }

  /** x.mul_(arange(4)) then (v * v).sum() for v = x[1:3]: a.grad = [0, 2, 8, 0]. */
  @Test
  void anInPlaceProductOnTheBaseReachesAViewMadeBefore() {
    Tensor a = leaf(1, 1, 1, 1);
    Tensor x = a.clone();
    Tensor v = x.narrow(0, 1, 2);
    x.mul_(Tensor.fromArray(new double[] {0, 1, 2, 3}));
    v.mul(v).sum().backward();
    assertGrad(a, 0, 2, 8, 0);
  }

  /** x = zeros(4); v = x[:2]; x.add_(w): v.requires_grad True, v.sum().backward() gives w.grad = [1, 1, 0, 0]. */
  @Test
  void anInPlaceOpGivingTheBaseAHistoryReachesAViewMadeBefore() {
    Tensor w = leaf(1, 1, 1, 1);
    Tensor x = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    Tensor v = x.narrow(0, 0, 2);
    x.add_(w);
    assertTrue(v.requiresGrad());
    v.sum().backward();
    assertGrad(w, 1, 1, 0, 0);
  }

  /** w = [1, 2, 3, 4]; x = zeros(4); v = x[1:3]; x.copy_(w * 2); (v * v).sum(): w.grad = [0, 16, 24, 0]; x[[2, 1]] = w2: w2.grad = [3, 3]. */
  @Test
  void aCopyOrAnIndexPutIntoTheBaseReachesAViewMadeBefore() {
    Tensor w = leaf(1, 2, 3, 4);
    Tensor x = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    Tensor v = x.narrow(0, 1, 2);
    x.copy_(w.mul(2.0));
    v.mul(v).sum().backward();
    assertGrad(w, 0, 16, 24, 0);
    Tensor w2 = leaf(1, 2);
    Tensor y = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    Tensor yv = y.narrow(0, 1, 2);
    y.set(new org.jtensor.Index[] {org.jtensor.Index.of(Tensor.fromArray(new long[] {2, 1}))}, w2);
    yv.mul(3.0).sum().backward();
    assertGrad(w2, 3, 3);
  }

  /** A view made under no_grad, changed in place by a recorded op: PyTorch refuses ("A view was created in no_grad mode ..."). */
  @Test
  void aViewMadeUnderNoGradIsRefusedARecordedInPlaceOp() {
    Tensor a = leaf(1, 1, 1, 1);
    Tensor x = a.clone();
    Tensor v;
    try (GradMode.Scope g = GradMode.noGrad()) {
      v = x.narrow(0, 0, 2);
    }
    assertTrue(v.requiresGrad());  // PyTorch: True, grad_fn None
    assertNull(v.gradFn());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> v.mul_(2.0));
    assertTrue(e.getMessage().startsWith("mul_(): A view was created in no_grad mode and is being modified inplace with grad "
        + "mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden."), e.getMessage());
    assertThrows(IllegalStateException.class, () -> v.narrow(0, 0, 1).zero_());  // a view of it inherits the rule
    assertUnchanged(x);
    Tensor z = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    Tensor zv;
    try (GradMode.Scope g = GradMode.noGrad()) {
      zv = z.narrow(0, 0, 2);
    }
    zv.mul_(2.0);  // PyTorch: nothing records, nothing refused
    Tensor w = leaf(1, 1);
    RuntimeException e2 = assertThrows(RuntimeException.class, () -> zv.add_(w));
    assertTrue(e2.getMessage().contains("A view was created in no_grad mode"), e2.getMessage());
  }

  /** PyTorch: "Output 1 of Split is a view and is being modified inplace. This view is the output of a function that returns multiple views. ..." */
  @Test
  void aSplitOutputIsRefusedARecordedInPlaceOp() {
    Tensor x = leaf(1, 1, 1, 1).clone();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> x.split(2, 0).get(1).mul_(2.0));
    assertTrue(e.getMessage().startsWith("mul_(): Output 1 of Split is a view and is being modified inplace. This view is the "
        + "output of a function that returns multiple views."), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> x.chunk(2, 0).get(0).mul_(2.0));
    assertTrue(e.getMessage().contains("Output 0 of Split is a view"), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> x.split(new long[] {1, 3}, 0).get(1).mul_(2.0));
    assertTrue(e.getMessage().contains("Output 1 of SplitWithSizes is a view"), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> x.unbind(0).get(1).mul_(2.0));
    assertTrue(e.getMessage().contains("Output 1 of Unbind is a view"), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> x.split(2, 0).get(0).narrow(0, 0, 1).mul_(2.0));  // a view of one too
    assertTrue(e.getMessage().contains("returns multiple views"), e.getMessage());
    x.tensorSplit(2, 0).get(1).mul_(2.0);  // PyTorch: allowed
    Tensor z = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    z.split(2, 0).get(0).mul_(2.0);  // nothing records: allowed
    e = assertThrows(IllegalStateException.class, () -> z.split(2, 0).get(0).add_(leaf(1, 1)));
    assertTrue(e.getMessage().startsWith("add_(): A view was created in no_grad mode and is being modified inplace with grad "
        + "mode enabled. This view is the output of a function that returns multiple views."), e.getMessage());
  }

  /** PyTorch refuses to use a no_grad or split view once its base changed in place ("... its base or another view of its base has been modified inplace"). */
  @Test
  void aNoGradOrSplitViewIsRefusedOnceItsBaseChangedInPlace() {
    Tensor x = leaf(1, 1, 1, 1).clone();
    Tensor v;
    try (GradMode.Scope g = GradMode.noGrad()) {
      v = x.narrow(0, 0, 2);
    }
    List<Tensor> p = x.split(2, 0);
    x.mul_(2.0);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> v.mul(1.0));
    assertTrue(e.getMessage().startsWith("mul(): A view was created in no_grad mode and its base or another view of its base has "
        + "been modified inplace with grad mode enabled."), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> p.get(0).sum());
    assertTrue(e.getMessage().startsWith("sum(): Output 0 of Split is a view and its base or another view of its base has been "
        + "modified inplace. This view is the output of a function that returns multiple views."), e.getMessage());
    try (GradMode.Scope g = GradMode.noGrad()) {  // nothing records: allowed
      assertArrayEquals(new double[] {2, 2}, v.mul(1.0).toDoubleArray(), 0);
      assertEquals(4.0, p.get(1).sum().item(), 0);
    }
  }

  /** PyTorch refuses detach_() on every view: "Can't detach views in-place. Use detach() instead." */
  @Test
  void detachInPlaceOfAViewIsRefusedEvenWithoutGrad() {
    Tensor x = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    RuntimeException e = assertThrows(RuntimeException.class, () -> x.narrow(0, 0, 2).detach_());
    assertTrue(e.getMessage().contains("Can't detach views in-place"), e.getMessage());
  }

  /** a = zeros(4); v = a[:2]; a.requires_grad_(): v.requires_grad True and v.mul_(2) refused ("a view of a leaf Variable ..."). */
  @Test
  void aViewMadeBeforeItsBaseRequiredGradIsRefusedInPlace() {
    Tensor a = Tensor.zeros(new long[] {4}, DType.FLOAT64);
    Tensor v = a.narrow(0, 0, 2);
    a.requiresGrad_();
    assertTrue(v.requiresGrad());
    RuntimeException e = assertThrows(RuntimeException.class, () -> v.mul_(2.0));
    assertTrue(e.getMessage().contains("a view of a leaf Variable that requires grad"), e.getMessage());
  }

  /** x.view(float32) is not a view to autograd in PyTorch (_base None, requires_grad False): v.mul_(w) leaves x's history. */
  @Test
  void anInPlaceOpOnADtypeViewLeavesTheBasesHistory() {
    Tensor a = leaf(1, 1);
    Tensor x = a.mul(1.0);
    Tensor v = x.view(DType.FLOAT32);
    Tensor w = Tensor.ones(new long[] {4}, DType.FLOAT32).requiresGrad_();
    v.mul_(w);
    assertEquals("MulBackward0", x.gradFn().name());
    x.sum().backward();
    assertGrad(a, 1, 1);
    assertFalse(x.view(DType.FLOAT32).requiresGrad());
    assertFalse(x.view(DType.INT64).isView());
  }
}
