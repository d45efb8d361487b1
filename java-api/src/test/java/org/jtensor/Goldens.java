package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The composed ops' comparison with PyTorch's goldens (ProductsTest, StatisticsTest, ...): dtype, shape, then each element. */
final class Goldens {
  private Goldens() {}

  /**
   * float64 within 1e-13 and float32 within 2e-6 of the largest |value| (a composition rounds
   * differently from PyTorch's fused kernel by an ulp of its terms), other dtypes exactly.
   */
  static void assertMatches(Tensor want, Tensor got, String what) {
    if (got == null) throw new AssertionError(what + ": no result");
    assertEquals(want.dtype(), got.dtype(), what + ": dtype");
    assertArrayEquals(want.shape(), got.shape(), what + ": shape");
    double[] w = want.toDoubleArray(), g = got.toDoubleArray();
    double tol = want.dtype() == DType.FLOAT64 ? 1e-13 : want.dtype() == DType.FLOAT32 ? 2e-6 : 0;
    Close.assertElements(what, w, g, Close.ofLargest(tol, w));
  }
}
