package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/** PyTorch's failure rules and the graph's lifetime. */
class AutogradRulesTest {
  private static void assertMessage(Throwable e, String part) {
    assertTrue(e.getMessage().contains(part), () -> "message names the rule: " + e.getMessage());
  }

  @Test
  void backwardTwiceWithoutRetainGraphIsRefused() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.exp().sum();
      y.backward();
      IllegalStateException e = assertThrows(IllegalStateException.class, y::backward);
      assertMessage(e, "Trying to backward through the graph a second time");
    }
  }

  @Test
  void retainGraphAllowsASecondBackward() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.exp().sum();
      try (Tensor g = Tensor.scalar(1.0)) {
        y.backward(g, true, false);
        y.backward(g, false, false);
      }
      assertArrayEquals(new double[] {2 * Math.exp(1), 2 * Math.exp(2)}, x.grad().toDoubleArray(), 1e-12);
    }
  }

  @Test
  void aSavedTensorModifiedInPlaceIsCaught() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor e = x.exp();        // saves its result
      Tensor y = e.sum();
      e.mul_(2.0);               // modifies it
      IllegalStateException ex = assertThrows(IllegalStateException.class, y::backward);
      assertMessage(ex, "one of the variables needed for gradient computation has been modified by an inplace operation");
      assertMessage(ex, "is at version 1; expected version 0 instead");
    }
  }

  @Test
  void inPlaceOnALeafThatRequiresGradIsRefused() {
    try (Tensor x = Tensor.ones(3).requiresGrad_()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> x.add_(1.0));
      assertMessage(e, "add_(): a leaf Variable that requires grad is being used in an in-place operation.");
      try (GradMode.Scope off = GradMode.noGrad()) {
        x.add_(1.0);  // allowed where nothing records, as PyTorch's torch.no_grad()
      }
      assertArrayEquals(new double[] {2, 2, 2}, x.toDoubleArray(), 0);
    }
  }

  @Test
  void inPlaceOnANonLeafRebasesItsHistory() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(3.0);
      y.mul_(y);                 // y = (3x)², in place
      assertEquals("MulBackward0", y.gradFn().name());
      y.sum().backward();        // d/dx 9x² = 18x
      assertArrayEquals(new double[] {18, 36}, x.grad().toDoubleArray(), 1e-12);
    }
  }

  @Test
  void backwardOfANonScalarNeedsAGradient() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0);
      IllegalStateException e = assertThrows(IllegalStateException.class, y::backward);
      assertMessage(e, "grad can be implicitly created only for scalar outputs");
      y.backward(Tensor.fromArray(new double[] {1, 0, 2}));
      assertArrayEquals(new double[] {2, 0, 4}, x.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void aLossComputedUnderNoGradHasNoGraph() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y;
      try (GradMode.Scope off = GradMode.noGrad()) {
        y = x.mul(2.0).sum();
      }
      IllegalStateException e = assertThrows(IllegalStateException.class, y::backward);
      assertMessage(e, "does not require grad and does not have a grad_fn");
    }
  }

  @Test
  void onlyFloatingLeavesMayRequireGradAndOnlyLeavesMayStop() {
    try (Tensor i = Tensor.arange(3); Tensor x = Tensor.ones(2).requiresGrad_(); TensorScope s = TensorScope.open()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> i.requiresGrad_());
      assertMessage(e, "only Tensors of floating point and complex dtype can require gradients");
      Tensor y = x.mul(2.0);
      assertMessage(assertThrows(IllegalStateException.class, () -> y.requiresGrad_(false)),
          "you can only change requires_grad flags of leaf variables");
      assertFalse(y.isLeaf());
      assertTrue(x.isLeaf());
      assertNull(x.gradFn());
    }
  }

  @Test
  void gradFnExposesTheGraph() {
    try (Tensor a = Tensor.ones(2).requiresGrad_(); Tensor b = Tensor.ones(2); TensorScope s = TensorScope.open()) {
      Tensor y = a.mul(b).add(a);
      Node add = y.gradFn();
      assertEquals("AddBackward0", add.name());
      List<Edge> next = add.nextFunctions();
      assertEquals("MulBackward0", next.get(0).function().name());
      assertEquals("AccumulateGrad", next.get(1).function().name());
      assertNull(next.get(0).function().nextFunctions().get(1), "b needs no gradient: no edge");
      assertSame(a.gradientEdge().function(), next.get(1).function());
    }
  }

  @Test
  void hooksSeeAndReplaceGradients() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0);
      List<double[]> seen = new ArrayList<>();
      y.registerHook(g -> {
        seen.add(g.toDoubleArray());
        return null;
      });
      RemovableHandle doubling = x.registerHook(g -> g.mul(2.0));
      y.sum().backward();
      assertArrayEquals(new double[] {1, 1}, seen.get(0), 0);
      assertArrayEquals(new double[] {4, 4}, x.grad().toDoubleArray(), 0);
      doubling.remove();
      x.setGrad(null);
      x.mul(2.0).sum().backward();
      assertArrayEquals(new double[] {2, 2}, x.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void retainGradKeepsANonLeafsGradient() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(3.0);
      assertNull(y.grad());
      y.retainGrad();
      assertTrue(y.retainsGrad());
      y.mul(y).sum().backward();  // d/dy y² = 2y = 6x
      assertArrayEquals(new double[] {6, 12}, y.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void detachCutsTheGraph() {
    try (Tensor x = Tensor.ones(2).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor d = x.mul(2.0).detach();
      assertFalse(d.requiresGrad());
      Tensor y = x.mul(2.0);
      y.detach_();
      assertFalse(y.requiresGrad());
      assertNull(y.gradFn());
    }
  }

  @Test
  void anUnusedGraphIsFreedWithItsTensors() {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Tensor x = Tensor.ones(1000).requiresGrad_()) {
      long withX = Memory.memoryAllocated(Device.CPU);
      for (int i = 0; i < 50; i++) {
        try (TensorScope s = TensorScope.open()) {
          x.exp().mul(x).sigmoid().sum();  // never backpropagated: the graph's saved tensors must still go
        }
      }
      assertEquals(withX, Memory.memoryAllocated(Device.CPU), "only x remains allocated");
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU));
  }

  @Test
  void autogradGradRefusesAnUnusedInputUnlessAllowed() {
    try (Tensor x = Tensor.ones(2).requiresGrad_(); Tensor z = Tensor.ones(2).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0).sum();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Autograd.grad(List.of(y), null, List.of(x, z), true, false, false));
      assertMessage(e, "appears to not have been used in the graph");
      List<Tensor> g = Autograd.grad(List.of(y), null, List.of(x, z), false, false, true);
      assertArrayEquals(new double[] {2, 2}, g.get(0).toDoubleArray(), 0);
      assertNull(g.get(1));
    }
  }

  @Test
  void outVariantsRefuseTensorsThatRequireGrad() {
    try (Tensor x = Tensor.ones(2).requiresGrad_(); Tensor out = Tensor.zeros(2)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.addOut(x, out));
      assertMessage(e, "addOut(): functions with out=... arguments don't support automatic differentiation");
    }
  }

  @Test
  void indexAssignmentIsDifferentiable() {
    try (Tensor x = Tensor.fromArray(new double[] {0.5, -1.0, 2.0, 1.5, -0.3, 0.8}, 2, 3).requiresGrad_();
         Tensor v = Tensor.fromArray(new double[] {0.7, -2.0}).requiresGrad_()) {
      GradCheck.check(in -> {
        Tensor y = in.get(0).mul(1.5);
        y.set(in.get(1).reshape(2, 1), org.jtensor.Index.all(), org.jtensor.Index.of(Tensor.fromArray(new long[] {2})));  // y[:, [2]] = v
        y.set(in.get(1).mul(2.0), org.jtensor.Index.all(), org.jtensor.Index.at(0));  // basic: y[:, 0] = 2v
        return y.mul(y);
      }, List.of(x, v));
      GradCheck.check(in -> {
        Tensor y = in.get(0).mul(2.0);  // (exp would save its output, which the assignment then changes: refused, as PyTorch)
        y.set(in.get(1).sum(), org.jtensor.Index.of(Tensor.fromArray(new long[] {1, 0})), org.jtensor.Index.at(1));  // y[[1,0], 1] = sum(v)
        y.set(0.25, org.jtensor.Index.at(0), org.jtensor.Index.at(0));                                                  // a scalar
        return y;
      }, List.of(x, v));
    }
  }

  @Test
  void inPlaceOnAViewRewritesTheBasesHistory() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2, 3}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(2.0);
      y.narrow(0, 0, 2).mul_(3.0);                 // y = [6x0, 6x1, 2x2]
      assertEquals("CopySlices", y.gradFn().name());
      y.sum().backward();
      assertArrayEquals(new double[] {6, 6, 2}, x.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void aBaseThatNeededNoGradientGainsOneThroughItsView() {
    try (Tensor w = Tensor.fromArray(new double[] {1, 2}).requiresGrad_(); Tensor b = Tensor.zeros(new long[] {3}, org.jtensor.DType.FLOAT64);
         TensorScope s = TensorScope.open()) {
      b.narrow(0, 1, 2).copy_(w.mul(5.0));
      assertTrue(b.requiresGrad());
      b.mul(b).sum().backward();                   // d/dw of Σ (5w)² = 50w
      assertArrayEquals(new double[] {50, 100}, w.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void aStaleSiblingViewIsRefreshed() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2, 3}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(1.0);
      Tensor v1 = y.narrow(0, 0, 2);               // recorded before the in-place op below
      y.narrow(0, 1, 2).mul_(10.0);                // y = [x0, 10x1, 10x2]
      v1.sum().backward();                         // v1 = [x0, 10x1]
      assertArrayEquals(new double[] {1, 10, 0}, x.grad().toDoubleArray(), 0);
    }
  }

  @Test
  void inPlaceOnAViewOfALeafIsRefused() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> x.narrow(0, 0, 2).add_(1.0));
      assertMessage(e, "a view of a leaf Variable that requires grad is being used in an in-place operation");
    }
  }

  @Test
  void inPlaceOnViewsPassesGradCheck() {
    try (Tensor x = Tensor.fromArray(new double[] {0.5, -1.2, 2.0, 0.7}).requiresGrad_()) {
      GradCheck.check(in -> {
        Tensor y = in.get(0).mul(1.5);
        y.narrow(0, 1, 2).mul_(in.get(0).narrow(0, 0, 2));
        y.select(0, 3).add_(in.get(0).select(0, 0).exp());
        return y;
      }, List.of(x));
    }
  }
}
