package org.jtensor.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.bytedeco.pytorch.global.torch;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/** triu/tril against libtorch (batched, non-square, every diagonal, in place, gradients), and gradient clipping by norm and value. */
class TriangularAndClippingTest extends ScopedTest {
  @Test
  void triuAndTrilMatchLibtorch() {
    Generator g = new Generator(41);
    long[][] shapes = {{4, 4}, {3, 5}, {2, 5, 3}, {2, 1, 4, 6}, {0, 3}};
    for (long[] shape : shapes) {
      Tensor x = Tensor.randn(shape, g).requiresGrad_();
      for (long d = -7; d <= 8; d++) {  // past every shape's rows and columns: the clamped diagonal
        String what = Arrays.toString(shape) + " diagonal " + d;
        assertArrayEquals(LibtorchPeer.values(torch.triu(LibtorchPeer.of(x), d)), x.triu(d).toDoubleArray(), 0, "triu " + what);
        assertArrayEquals(LibtorchPeer.values(torch.tril(LibtorchPeer.of(x), d)), x.tril(d).toDoubleArray(), 0, "tril " + what);
        Tensor copy = x.detach().clone();
        assertArrayEquals(x.triu(d).toDoubleArray(), copy.triu_(d).toDoubleArray(), 0, "triu_ " + what);
      }
      x.tril(-1).sum().backward();  // the gradient: 1 where tril kept the element
      assertArrayEquals(LibtorchPeer.values(torch.tril(torch.ones_like(LibtorchPeer.of(x)), -1)), x.grad().toDoubleArray(), 0,
          "tril gradient " + Arrays.toString(shape));
    }
    Tensor ints = Tensor.arange(12).reshape(3, 4);
    assertEquals(DType.INT64, ints.triu(1).dtype());
    assertArrayEquals(new double[] {0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11}, ints.triu(1).toDoubleArray(), 0);
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(3).triu(0));
  }

  @Test
  void clipGradNormScalesEveryGradientByOneFactor() {
    Tensor a = Tensor.zeros(2).requiresGrad_(), b = Tensor.zeros(2, 2).requiresGrad_(), none = Tensor.zeros(3).requiresGrad_();
    a.setGrad(Tensor.fromArray(new double[] {3, 0}).to(DType.FLOAT32));
    b.setGrad(Tensor.fromArray(new double[] {0, 4, 0, 0}).to(DType.FLOAT32).reshape(2, 2));
    Tensor total = GradClipping.clipGradNorm_(List.of(a, b, none), 1.0);
    assertEquals(5.0, total.item(), 1e-6);
    double k = 1.0 / (5.0 + 1e-6);
    assertArrayEquals(new double[] {3 * k, 0}, a.grad().toDoubleArray(), 1e-6);
    assertArrayEquals(new double[] {0, 4 * k, 0, 0}, b.grad().toDoubleArray(), 1e-6);
    assertNull(none.grad());
    Tensor small = GradClipping.clipGradNorm_(List.of(a, b), 10.0);  // below the bound: untouched
    assertEquals(1.0, small.item(), 1e-5);
    assertArrayEquals(new double[] {3 * k, 0}, a.grad().toDoubleArray(), 1e-6);
    Tensor inf = GradClipping.clipGradNorm_(List.of(a, b), 0.4, Double.POSITIVE_INFINITY, false);  // the largest magnitude
    assertEquals(4 * k, inf.item(), 1e-6);
    assertEquals(0.4, b.grad().amax().item(), 1e-5);
    b.setGrad(Tensor.fromArray(new double[] {Double.NaN, 0, 0, 0}).to(DType.FLOAT32).reshape(2, 2));
    assertThrows(IllegalStateException.class, () -> GradClipping.clipGradNorm_(List.of(a, b), 1.0, 2.0, true));
    assertArrayEquals(new double[] {3 * k * 0.4 / (4 * k + 1e-6), 0}, a.grad().toDoubleArray(), 1e-6);  // refused before any scaling
    assertEquals(0.0, GradClipping.clipGradNorm_(List.of(none), 1.0).item(), 0);
  }

  @Test
  void clipGradValueClampsInPlace() {
    Tensor a = Tensor.zeros(4).requiresGrad_();
    a.setGrad(Tensor.fromArray(new double[] {-3, -0.5, 0.5, 3}).to(DType.FLOAT32));
    GradClipping.clipGradValue_(List.of(a), 1.0);
    assertArrayEquals(new double[] {-1, -0.5, 0.5, 1}, a.grad().toDoubleArray(), 0);
    assertThrows(IllegalArgumentException.class, () -> GradClipping.clipGradValue_(List.of(a), -1));
  }
}
