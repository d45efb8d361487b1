package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of binary and ternary elementwise math's values at special points, forward and
 * gradient, against PyTorch 2.13 (CPU); each expectation is PyTorch's answer to the same call.
 */
class BinaryValuesHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY, NAN = Double.NaN;

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  /** The gradients of op(a, b).backward(g): a's, then b's. */
  private static double[][] grads(BinaryOperator<Tensor> op, Tensor a, Tensor b, Tensor g) {
    a.requiresGrad_(true);
    b.requiresGrad_(true);
    op.apply(a, b).backward(g);
    return new double[][] {a.grad().toDoubleArray(), b.grad().toDoubleArray()};
  }

  /**
   * atan2(y, x) at (0, 0): PyTorch's gradient is 0 for both (its 1 / (x² + y²) is taken as 0 where
   * x² + y² is 0), also where the squares underflow, (1e-30, 0) in float32; here g / 0 times 0 was NaN.
   */
  @Test
  void atan2GradientWasNaNWhereXSquaredPlusYSquaredIsZero() {
    double[][] g = grads(Tensor::atan2, f32(0, 1e-30, 0, 3), f32(0, 0, 1e-30, 0), f32(1, 1, 1, 1));
    assertArrayEquals(new double[] {0, 0, 0, 0}, g[0]);
    assertArrayEquals(new double[] {-0.0, -0.0, -0.0, -1 / 3.0}, g[1], 1e-7);
    assertEquals(-0.0, g[1][0]);  // -g·y·0: torch gives -0. at y = +0
    double[][] d = grads(Tensor::atan2, Tensor.fromArray(new double[] {0, -0.0}), Tensor.fromArray(new double[] {0, 0}),
        Tensor.fromArray(new double[] {2, 2}));
    assertArrayEquals(new double[] {0, 0}, d[0]);
    assertArrayEquals(new double[] {-0.0, 0.0}, d[1]);
    double[][] n = grads(Tensor::atan2, f32(0), f32(0), f32(INF));  // inf · 0: NaN in PyTorch too
    assertEquals(NAN, n[0][0]);
  }

  /**
   * maximum/minimum backward is PyTorch's where(x == y, g / 2, g) with 0 written where an input lost.
   * A NaN pair loses on neither side, so both get g (torch: [1., 1., .5] for each; here 0); an
   * infinite g gave the loser inf · 0 = NaN (torch: 0).
   */
  @Test
  void maximumAndMinimumGradientsDroppedNaNPairsAndMadeNaNFromAnInfiniteGradient() {
    double[][] g = grads(Tensor::maximum, f32(NAN, 1, 2), f32(1, NAN, 2), f32(1, 1, 1));
    assertArrayEquals(new double[] {1, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1, 1, 0.5}, g[1]);
    g = grads(Tensor::minimum, f32(NAN, 1, 2), f32(1, NAN, 2), f32(1, 1, 1));
    assertArrayEquals(new double[] {1, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1, 1, 0.5}, g[1]);
    g = grads(Tensor::maximum, f32(1, 3), f32(2, 2), f32(INF, INF));
    assertArrayEquals(new double[] {0, INF}, g[0]);
    assertArrayEquals(new double[] {INF, 0}, g[1]);
    g = grads(Tensor::minimum, f32(1, 3), f32(2, 2), f32(INF, INF));
    assertArrayEquals(new double[] {INF, 0}, g[0]);
    assertArrayEquals(new double[] {0, INF}, g[1]);
    g = grads(Tensor::maximum, f32(1, 5, 3), f32(3), f32(1, 1, 1));  // broadcast: b's gradient summed
    assertArrayEquals(new double[] {0, 1, 0.5}, g[0]);
    assertArrayEquals(new double[] {1.5}, g[1]);
  }
}
