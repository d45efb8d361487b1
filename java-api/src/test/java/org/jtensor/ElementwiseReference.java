package org.jtensor;

/** Plain-Java references for the elementwise property test: float64 math, exact int64 with wrap. */
public final class ElementwiseReference {
  private ElementwiseReference() {}

  interface F1 { double apply(double a); }
  interface F2 { double apply(double a, double b); }
  interface I1 { long apply(long a); }
  interface I2 { long apply(long a, long b); }

  /** An integer result as the dtype stores it (two's complement wrap; bool is 0/1). */
  public static long narrow(long v, DType t) {
    switch (t) {
      case BOOL: return v != 0 ? 1 : 0;
      case UINT8: return v & 0xff;
      case INT8: return (byte) v;
      case INT16: return (short) v;
      case INT32: return (int) v;
      default: return v;
    }
  }

  public static double erf(double x) {  // Abramowitz-Stegun 7.1.26 is too coarse; use a series/continued fraction
    double t = Math.abs(x);
    if (t < 2.5) {
      double sum = t, term = t, t2 = t * t;
      for (int n = 1; n < 60; n++) {
        term *= -t2 / n;
        sum += term / (2 * n + 1);
      }
      return Math.copySign(2 / Math.sqrt(Math.PI) * sum, x);
    }
    double cf = 0;  // erfc continued fraction
    for (int n = 60; n >= 1; n--) cf = n / 2.0 / (t + cf);
    return Math.copySign(1 - Math.exp(-t * t) / Math.sqrt(Math.PI) / (t + cf), x);
  }

  /** erfc of t >= 0, from the same series and continued fraction as erf, with no 1 - erf cancellation in the tail. */
  public static double erfc(double t) {
    if (t < 2.5) return 1 - erf(t);
    double cf = 0;
    for (int n = 60; n >= 1; n--) cf = n / 2.0 / (t + cf);
    return Math.exp(-t * t) / Math.sqrt(Math.PI) / (t + cf);
  }

  /** erfinv by bisection on erf (or on erfc past 1/2, where 1 - |y| keeps the digits): independent of the kernel's Newton steps. */
  public static double erfinv(double y) {
    double a = Math.abs(y);
    if (!(a <= 1)) return Double.NaN;
    if (a == 1) return Math.copySign(Double.POSITIVE_INFINITY, y);
    double lo = 0, hi = 10;
    for (int i = 0; i < 200 && lo < hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (mid == lo || mid == hi) break;
      if (a <= 0.5 ? erf(mid) < a : erfc(mid) > 1 - a) lo = mid;
      else hi = mid;
    }
    return Math.copySign(0.5 * (lo + hi), y);
  }

  static double pyMod(double a, double b) {
    double m = a % b;
    return m != 0 && (b < 0) != (m < 0) ? m + b : m;
  }

  static long ipow(long a, long e) {
    long r = 1;
    for (long i = 0; i < e; i++) r *= a;
    return r;
  }
}
