package org.jtensor;

/**
 * The tests' one rule for "close enough" (issue 22 point 2): NaN matches only NaN, an infinity only
 * itself, and a number any value within the tolerance. It is written as "within", never as "not
 * beyond": {@code Math.abs(got - want) > tol} is false when got is NaN, so a NaN result passed the
 * checks written that way. Every tolerance comparison of floating values in the tests goes through
 * here; {@link CloseTest} shows each kind of wrong value failing it.
 */
public final class Close {
  private Close() {}

  /** The tolerance for one wanted value. */
  public interface Tolerance {
    double of(double want);
  }

  /** Whether got matches want: NaN only NaN, an infinity only itself, else |got - want| <= tol (a NaN tol matches nothing). */
  public static boolean within(double got, double want, double tol) {
    if (Double.isNaN(want) || Double.isNaN(got)) return Double.isNaN(want) && Double.isNaN(got);
    if (Double.isInfinite(want) || Double.isInfinite(got)) return got == want;
    return Math.abs(got - want) <= tol;
  }

  /** tol, whatever the value. */
  public static Tolerance absolute(double tol) {
    return w -> tol;
  }

  /** tol · max(1, |want|): relative for large values, absolute near zero. */
  public static Tolerance relative(double tol) {
    return w -> tol * Math.max(1, Math.abs(w));
  }

  /** tol · max(1, the largest finite |want|): for results whose small elements are differences of large terms. */
  public static Tolerance ofLargest(double tol, double[] want) {
    double scale = 1;
    for (double v : want) if (Double.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    return absolute(tol * scale);
  }

  /** Fails naming what and the first element of got not within tolerance of want's (and a length that differs). */
  public static void assertElements(String what, double[] want, double[] got, Tolerance tolerance) {
    if (want.length != got.length) throw new AssertionError(what + ": " + got.length + " values, expected " + want.length);
    for (int i = 0; i < want.length; i++) {
      if (!within(got[i], want[i], tolerance.of(want[i]))) {
        throw new AssertionError(what + "[" + i + "]: expected " + want[i] + ", got " + got[i]);
      }
    }
  }

  /** want's dtype and shape, and every element within tol · max(1, want's largest |value|): a result against its PyTorch golden. */
  public static void assertTensor(String what, Tensor want, Tensor got, double tol) {
    if (want.dtype() != got.dtype()) throw new AssertionError(what + ": dtype " + got.dtype() + ", expected " + want.dtype());
    if (!java.util.Arrays.equals(want.shape(), got.shape())) {
      throw new AssertionError(what + ": shape " + java.util.Arrays.toString(got.shape()) + ", expected " + java.util.Arrays.toString(want.shape()));
    }
    double[] w = want.toDoubleArray();
    assertElements(what, w, got.toDoubleArray(), ofLargest(tol, w));
  }
}
