package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Advanced indexing and the masked/where family against PyTorch 2.13 (its answers noted beside each case). */
class IndexingHostileTest extends ScopedTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  private static Tensor floats(double... v) {
    return Tensor.fromArray(v).to(DType.FLOAT32);
  }

  private static Tensor bools(boolean... v) {
    return Tensor.fromArray(v);
  }

  /** where's and maskedFill's gradients were g times the mask: an inf in g where the input was not taken gave NaN. */
  @Test
  void whereAndMaskedFillGradientsAreExactZerosWhereNotTaken() {
    Tensor c = bools(true, false);
    Tensor a = floats(0, 1).requiresGrad_(), b = floats(0, 0).requiresGrad_();
    Tensor.where(c, a, b).sqrt().sum().backward();  // torch: a.grad [inf, 0], b.grad [0, inf]
    assertArrayEquals(new double[] {INF, 0}, a.grad().toDoubleArray());
    assertArrayEquals(new double[] {0, INF}, b.grad().toDoubleArray());
    Tensor x = floats(1, 1).requiresGrad_();
    x.maskedFill(c, 0.0).sqrt().sum().backward();  // torch: [0, 0.5]
    assertArrayEquals(new double[] {0, 0.5}, x.grad().toDoubleArray());
    Tensor y = floats(1, 1).requiresGrad_(), v = Tensor.scalar(0.0).to(DType.FLOAT32).requiresGrad_();
    y.maskedFill(c, v).sqrt().sum().backward();  // torch: y.grad [0, 0.5], v.grad inf
    assertArrayEquals(new double[] {0, 0.5}, y.grad().toDoubleArray());
    assertArrayEquals(new double[] {INF}, v.grad().reshape(1).toDoubleArray());
  }

  /** set's gradient for the target was g times (1 - written): an inf in g at an overwritten element gave NaN. */
  @Test
  void setGradientIsAnExactZeroWhereOverwritten() {
    Tensor x = floats(4, 4).requiresGrad_();
    Tensor y = x.mul(1.0);
    y.set(0.0, Index.of(Tensor.fromArray(new long[] {0})));
    y.sqrt().sum().backward();  // torch: x.grad [0, 0.25] (sqrt's gradient at the written 0 is inf)
    assertArrayEquals(new double[] {0, 0.25}, x.grad().toDoubleArray());
    Tensor a = floats(4, 4).requiresGrad_(), v = floats(4).requiresGrad_();
    Tensor b = a.mul(1.0);
    b.set(v, Index.of(Tensor.fromArray(new long[] {0})));
    b.sub(4.0).reciprocal().sum().backward();  // torch: a.grad [0, -inf], v.grad [-inf]
    assertArrayEquals(new double[] {0, -INF}, a.grad().toDoubleArray());
    assertArrayEquals(new double[] {-INF}, v.grad().toDoubleArray());
  }
}
