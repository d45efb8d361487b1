package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Function;
import org.jtensor.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of reductions' dtype and option arguments against PyTorch 2.13 (CPU): each
 * expectation is PyTorch's answer to the same call, noted beside it.
 */
class ReductionDtypeHostileTest extends ScopedTest {
  private static final double NAN = Double.NaN;

  private static Tensor f32(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static double[] grad(Function<Tensor, Tensor> f, double... v) {
    Tensor x = f32(v).requiresGrad_(true);
    f.apply(x).sum().backward();
    return x.grad().toDoubleArray();
  }

  /** The derivative of sum(d f(x) / dx): autograd.grad with create_graph, then again. */
  private static double[] secondGrad(Function<Tensor, Tensor> f, double... v) {
    Tensor x = f32(v).requiresGrad_(true);
    Tensor g = Autograd.grad(f.apply(x).sum(), List.of(x), true).get(0);
    return Autograd.grad(g.sum(), List.of(x), false).get(0).toDoubleArray();
  }

  /**
   * x = tensor([2., 0., 3.]): grad of grad of x.prod() is [3., 5., 2.]; with two zeros ([2., 0., 0.])
   * [0., 2., 2.]. The backward divided by x where x is 0 (masked by where, whose gradient then
   * met 0 / 0), so every element was NaN; with two zeros the zeros' gradients were constants.
   */
  @Test
  void prodSecondDerivativeWithZerosWasNaN() {
    assertArrayEquals(new double[] {3, 5, 2}, secondGrad(Tensor::prod, 2, 0, 3));
    assertArrayEquals(new double[] {0, 2, 2}, secondGrad(Tensor::prod, 2, 0, 0));
    assertArrayEquals(new double[] {0, 0, 0}, secondGrad(Tensor::prod, 0, 0, 0));
    assertArrayEquals(new double[] {5, 4, 3}, secondGrad(Tensor::prod, 1, 2, 3));  // no zero: as before
    // along a dim: rows [0., 2., 0.] and [1., 0., 3.] give [[2., 0., 2.], [3., 4., 1.]]
    assertArrayEquals(new double[] {2, 0, 2, 3, 4, 1}, secondGrad(x -> x.reshape(2, 3).prod(new int[] {1}, false), 0, 2, 0, 1, 0, 3));
  }
}
