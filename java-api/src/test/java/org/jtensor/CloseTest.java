package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shared closeness rule fails every kind of wrong value, the NaN that "beyond tol" let through first. */
class CloseTest {
  private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

  @Test
  void aNaNWhereANumberIsWantedFailsAsTheOldBeyondTolCheckDidNot() {
    assertFalse(Math.abs(NAN - 1.0) > 1e-5, "the sabotage: the old form passes NaN");
    assertFalse(Close.within(NAN, 1.0, 1e-5));
    assertFalse(Close.within(1.0, NAN, 1e-5), "a number where NaN is wanted");
    assertFalse(Close.within(1.0, 1.0, NAN), "a NaN tolerance matches nothing");
    assertTrue(Close.within(NAN, NAN, 0));
  }

  @Test
  void anInfinityMatchesOnlyItself() {
    assertTrue(Close.within(INF, INF, 0));
    assertFalse(Close.within(-INF, INF, 1e300));
    assertFalse(Close.within(INF, 1e308, 1e300), "an overflow is not close to a large number");
    assertFalse(Close.within(1e308, INF, INF), "nor is a large number close to an infinity, whatever the tolerance");
  }

  @Test
  void goldenComparisonTakesAnInfiniteResultForAMismatch() {
    // Its tolerance is relative to the larger of the two values: before it went through within(),
    // an infinite result (tolerance infinite) passed against any finite golden.
    GoldenComparison overflow = new GoldenComparison();
    overflow.compare(DType.FLOAT32, new double[] {1e30, 2}, new double[] {INF, 2}, false, false, "overflow");
    assertThrows(org.opentest4j.AssertionFailedError.class, overflow::assertNone);
    GoldenComparison close = new GoldenComparison();
    close.compare(DType.FLOAT32, new double[] {1e30, INF, NAN}, new double[] {1e30 * (1 + 1e-7), INF, NAN}, false, false, "close");
    close.assertNone();
  }

  @Test
  void numbersCompareWithinTheToleranceInclusive() {
    assertTrue(Close.within(1.5, 1.0, 0.5));
    assertFalse(Close.within(1.5000001, 1.0, 0.5));
    assertTrue(Close.within(-0.0, 0.0, 0));
    assertEquals(2e-5 * 3, Close.relative(2e-5).of(-3), 0);
    assertEquals(2e-5, Close.relative(2e-5).of(0.25), 0);
    assertEquals(1e-6 * 40, Close.ofLargest(1e-6, new double[] {3, -40, INF, NAN}).of(0), 0, "the largest finite magnitude");
  }

  @Test
  void anArrayCheckNamesTheFirstWrongElement() {
    double[] want = {1, 2, NAN, INF};
    assertDoesNotThrow(() -> Close.assertElements("ok", want, new double[] {1, 2 + 1e-9, NAN, INF}, Close.relative(1e-6)));
    AssertionError e = assertThrows(AssertionError.class,
        () -> Close.assertElements("sum", want, new double[] {1, NAN, NAN, INF}, Close.relative(1e-6)));
    assertEquals("sum[1]: expected 2.0, got NaN", e.getMessage());
    e = assertThrows(AssertionError.class, () -> Close.assertElements("sum", want, new double[] {1, 2}, Close.relative(1e-6)));
    assertEquals("sum: 2 values, expected 4", e.getMessage());
  }
}
