package org.jtensor.fuzz;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.ElementwiseReference;
import org.jtensor.Tensor;

/** A tensor's logical values in row-major order, read through the public API, with the numerics to compare them. */
final class Vals {
  final long[] shape;
  final DType dtype;
  final double[] d;
  final long[] l;  // exact values of integral and bool tensors; null for floats

  Vals(Tensor t) {
    shape = t.shape();
    dtype = t.dtype();
    d = t.toDoubleArray();
    l = dtype.isFloatingPoint() ? null : t.toLongArray();
  }

  static Vals of(Object result) {
    if (!(result instanceof Tensor t)) throw new AssertionError("expected a Tensor, got " + result);
    return new Vals(t);
  }

  boolean integral() {
    return l != null;
  }

  int numel() {
    return d.length;
  }

  /** v as the dtype stores it: two's complement wrap for integers, round-to-nearest-even for floats. */
  static double round(double v, DType t) {
    switch (t) {
      case FLOAT64: return v;
      case FLOAT32: return (float) v;
      case BFLOAT16: return bf16(toOddFloat(v));
      case FLOAT16: return half(toOddFloat(v));
      default: return wrap(toLong(v, t), t);
    }
  }

  /**
   * v as a float rounded to odd: a second rounding to 16 bits is then exact (round once from
   * double, as the library's conversion does, not twice through float32).
   */
  private static float toOddFloat(double v) {
    float f = (float) v;
    if (f != v && f != 0 && !Float.isNaN(f) && !Float.isInfinite(f) && (Float.floatToRawIntBits(f) & 1) == 0) {
      boolean up = (f < v) == (f > 0);
      f = Float.intBitsToFloat(Float.floatToRawIntBits(f) + (up ? 1 : -1));
    }
    return f;
  }

  /**
   * A floating value converted to an integral dtype's integer: truncated (NaN to 0, beyond int64
   * saturated, as the library defines what C++ leaves undefined), or for bool whether it is nonzero (NaN is).
   */
  static long toLong(double v, DType t) {
    return t == DType.BOOL ? (v != 0 ? 1 : 0) : (long) v;
  }

  static long wrap(long v, DType t) {
    return ElementwiseReference.narrow(v, t);
  }

  private static float bf16(float f) {
    if (Float.isNaN(f)) return f;
    int bits = Float.floatToRawIntBits(f);
    bits += 0x7fff + ((bits >> 16) & 1);
    return Float.intBitsToFloat(bits & 0xffff0000);
  }

  private static double half(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) return f;
    double a = Math.abs(f);
    if (a >= 65520) return Math.copySign(Double.POSITIVE_INFINITY, f);
    double q = a < 6.103515625e-05 ? 0x1p-24 : Math.scalb(1.0, Math.getExponent(a) - 10);
    return Math.copySign(Math.rint(a / q) * q, f);
  }

  /** Relative tolerance of one rounding (and a float-computed kernel) in this dtype. */
  static double rtol(DType t) {
    switch (t) {
      case FLOAT16: return 2e-3;
      case BFLOAT16: return 1.6e-2;
      case FLOAT32: return 1e-5;
      case FLOAT64: return 1e-12;
      default: return 0;
    }
  }

  static double atol(DType t) {
    switch (t) {
      case FLOAT16: return 1e-3;
      case BFLOAT16: return 1e-2;
      case FLOAT32: return 1e-6;
      case FLOAT64: return 1e-12;
      default: return 0;
    }
  }

  /** Whether actual matches expected within tol; NaN matches NaN, an infinity only itself. */
  static boolean close(double actual, double expected, double tol) {
    return org.jtensor.Close.within(actual, expected, tol);
  }

  static void expectShape(long[] expected, Vals got, String what) {
    if (!Arrays.equals(expected, got.shape)) {
      throw new AssertionError(what + ": shape " + Arrays.toString(got.shape) + ", expected " + Arrays.toString(expected));
    }
  }

  /**
   * Element i of r against an exact integer e, as r's dtype stores it (an integer result wraps, a
   * floating one rounds).
   */
  static void expectExact(Vals r, int i, long e, String what) {
    if (r.integral() ? r.l[i] != wrap(e, r.dtype) : Double.compare(r.d[i], fromInteger(e, r.dtype)) != 0) {
      throw mismatch(what, i, r.integral() ? r.l[i] : r.d[i], r.integral() ? wrap(e, r.dtype) : fromInteger(e, r.dtype));
    }
  }

  /**
   * The integer e as floating dtype t holds it: through float below float64, as C++'s
   * static_cast<float> then the 16-bit rounding, so PyTorch's int64 to bfloat16 rounds twice
   * (-4602678815949324289, just past the midpoint below -2^62, is -2^62 in PyTorch 2.13, not the
   * bfloat16 below it that one rounding from the integer gives).
   */
  static double fromInteger(long e, DType t) {
    return t == DType.FLOAT64 ? (double) e : round((float) e, t);
  }

  static AssertionError mismatch(String what, int i, double actual, double expected) {
    return new AssertionError(what + ": element " + i + " is " + actual + ", expected " + expected);
  }

  /** Row-major multi-index of flat position k. */
  static long[] unflat(long k, long[] shape) {
    long[] idx = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = shape[d] == 0 ? 0 : k % shape[d];
      k = shape[d] == 0 ? 0 : k / shape[d];
    }
    return idx;
  }

  /** Flat row-major position of a multi-index. */
  static int flat(long[] idx, long[] shape) {
    long k = 0;
    for (int d = 0; d < shape.length; d++) k = k * shape[d] + idx[d];
    return (int) k;
  }
}
