package org.jtensor.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.junit.jupiter.api.Test;

/** The engine on small graphs whose gradients are known by hand. */
class BackwardBasicsTest {
  @Test
  void squareSumGivesTwiceTheInput() {
    try (Tensor x = Tensor.fromArray(new double[] {1, -2, 3}).requiresGrad_()) {
      try (TensorScope s = TensorScope.open()) {
        Tensor y = x.mul(x).sum();
        assertEquals("SumBackward0", y.gradFn().name());
        assertEquals("MulBackward0", y.gradFn().nextFunctions().get(0).function().name());
        y.backward();
      }
      try (Tensor g = x.grad()) {
        assertArrayEquals(new double[] {2, -4, 6}, g.toDoubleArray(), 0);
      }
    }
  }

  @Test
  void gradientsAccumulateAcrossBackwardCallsAndClear() {
    try (Tensor x = Tensor.fromArray(new double[] {1, 2}).requiresGrad_()) {
      for (int i = 0; i < 3; i++) {
        try (TensorScope s = TensorScope.open()) {
          x.mul(3.0).sum().backward();
        }
      }
      try (Tensor g = x.grad()) {
        assertArrayEquals(new double[] {9, 9}, g.toDoubleArray(), 0);
      }
      x.setGrad(null);
      assertNull(x.grad());
    }
  }

  @Test
  void broadcastingIsSummedBackToEachInput() {
    try (Tensor a = Tensor.ones(2, 3).requiresGrad_(); Tensor b = Tensor.ones(3).requiresGrad_();
         TensorScope s = TensorScope.open()) {
      a.add(b, 2.0).mul(a).sum().backward();
      Tensor ga = a.grad(), gb = b.grad();
      // d/da (a + 2b)·a = 2a + 2b = 4;  d/db = 2a summed over the broadcast dim = 4
      assertArrayEquals(new double[] {4, 4, 4, 4, 4, 4}, ga.toDoubleArray(), 0);
      assertArrayEquals(new long[] {3}, gb.shape());
      assertArrayEquals(new double[] {4, 4, 4}, gb.toDoubleArray(), 0);
    }
  }

  @Test
  void autogradGradLeavesGradUntouched() {
    try (Tensor x = Tensor.fromArray(new double[] {0.5, 1.5}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.exp().sum();
      List<Tensor> g = Autograd.grad(y, List.of(x), false);
      assertArrayEquals(new double[] {Math.exp(0.5), Math.exp(1.5)}, g.get(0).toDoubleArray(), 1e-12);
      assertNull(x.grad());
    }
  }

  @Test
  void secondOrderThroughCreateGraph() {
    try (Tensor x = Tensor.fromArray(new double[] {2.0}).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y = x.mul(x).mul(x).sum();                       // x³
      Tensor dy = Autograd.grad(y, List.of(x), true).get(0);  // 3x² = 12, with a graph
      assertTrue(dy.requiresGrad());
      Tensor d2 = Autograd.grad(dy.sum(), List.of(x), false).get(0);  // 6x = 12
      assertEquals(12.0, dy.item(), 1e-12);
      assertEquals(12.0, d2.item(), 1e-12);
    }
  }

  @Test
  void noGradRecordsNothing() {
    try (Tensor x = Tensor.ones(3).requiresGrad_(); TensorScope s = TensorScope.open()) {
      Tensor y;
      try (GradMode.Scope off = GradMode.noGrad()) {
        y = x.mul(2.0);
      }
      assertFalse(y.requiresGrad());
      assertNull(y.gradFn());
      assertTrue(x.mul(2.0).requiresGrad());
    }
  }

  @Test
  void float32GradientsStayFloat32() {
    try (Tensor x = Tensor.ones(new long[] {4}, DType.FLOAT32).requiresGrad_(); TensorScope s = TensorScope.open()) {
      x.mul(2.5).sum().backward();
      Tensor g = x.grad();
      assertEquals(DType.FLOAT32, g.dtype());
      assertArrayEquals(new float[] {2.5f, 2.5f, 2.5f, 2.5f}, g.toFloatArray(), 0f);
    }
  }

  @Test
  void aDtypeConversionSendsTheGradientBackInTheInputsDtype() {
    try (Tensor x = Tensor.ones(new long[] {3}, DType.FLOAT64).requiresGrad_(); TensorScope s = TensorScope.open()) {
      x.to(DType.FLOAT32).mul(2.0).sum().backward();
      Tensor g = x.grad();
      assertEquals(DType.FLOAT64, g.dtype());
      assertArrayEquals(new double[] {2, 2, 2}, g.toDoubleArray(), 0);
    }
  }
}
