package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The composed ops' checks against PyTorch (ProductsTest, StatisticsTest, DistancesTest): goldens by dtype, shape and element; refusals by message. */
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

  /** call is refused with a documented exception whose message holds message (the op as the user called it and PyTorch's words). */
  static void refused(String message, Runnable call) {
    RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, call::run);
    org.junit.jupiter.api.Assertions.assertTrue(e instanceof IllegalArgumentException || e instanceof UnsupportedOperationException
        || e instanceof IllegalStateException, "type: " + e);
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(message), "message: " + e.getMessage() + "\nexpected: " + message);
  }
}
