package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;
import org.jtensor.DType;
import org.jtensor.Tensor;

/** Exact references for the factories: the shape and dtype asked for, and every value as the dtype stores it. */
final class FactoryRefs {
  private FactoryRefs() {}

  /** Element i is value(i) (a double, converted as a cast converts it: integers truncate and wrap, bool is nonzero). */
  static Fuzz.Check values(String what, long[] shape, DType dtype, IntToDoubleFunction value) {
    return (result, in) -> {
      Vals r = Vals.of(result);
      Vals.expectShape(shape, r, what);
      if (r.dtype != dtype) throw new AssertionError(what + " gave " + r.dtype + ", asked for " + dtype);
      for (int i = 0; i < r.numel(); i++) {
        double e = Vals.round(value.applyAsDouble(i), dtype);
        if (Double.compare(r.d[i], e) != 0 && !(r.d[i] == 0 && e == 0)) throw Vals.mismatch(what, i, r.d[i], e);
      }
    };
  }

  /** Every element the same value. */
  static Fuzz.Check filled(String what, long[] shape, DType dtype, double value) {
    return values(what, shape, dtype, i -> value);
  }

  /** Every element the same exact integer (an int64 beyond 2^53 included). */
  static Fuzz.Check filled(String what, long[] shape, DType dtype, long value) {
    Fuzz.Check rounded = filled(what, shape, dtype, (double) value);
    return (result, in) -> {
      rounded.verify(result, in);
      Vals r = Vals.of(result);
      for (int i = 0; r.integral() && i < r.numel(); i++) Vals.expectExact(r, i, value, what);
    };
  }

  /** arange over int64: start + i * step for i below ceil((end - start) / step), wrapped into the dtype. */
  static Fuzz.Check arange(long start, long end, long step, DType dtype) {
    long span = end - start, n = step == 0 ? 0 : span / step + (span % step != 0 ? 1 : 0);  // step 0 is refused
    Fuzz.Check values = values("arange", new long[] {Math.max(n, 0)}, dtype, i -> start + i * step);
    return (result, in) -> {
      values.verify(result, in);
      Vals r = Vals.of(result);
      for (int i = 0; r.integral() && i < r.numel(); i++) Vals.expectExact(r, i, start + i * step, "arange");
    };
  }

  /**
   * linspace: from both ends (start + i * step below the middle, end - (steps - 1 - i) * step from it),
   * as PyTorch, whose integer dtypes truncate both ends first; one point is start.
   */
  static Fuzz.Check linspace(double from, double to, long steps, DType dtype) {
    boolean integral = !dtype.isFloatingPoint() && steps > 1;
    double start = integral ? (from < 0 ? Math.ceil(from) : Math.floor(from)) : from;
    double end = steps == 1 ? from : integral ? (to < 0 ? Math.ceil(to) : Math.floor(to)) : to;
    double step = steps > 1 ? (end - start) / (steps - 1) : 0;
    return values("linspace", new long[] {Math.max(steps, 0)}, dtype,
        i -> i < steps / 2 ? step * i + start : -step * (steps - i - 1) + end);
  }

  /** eye(n, m): 1 where row equals column. */
  static Fuzz.Check eye(long n, long m, DType dtype) {
    return values("eye", new long[] {n, m}, dtype, i -> i / m == i % m ? 1 : 0);
  }

  /** emptyStrided(...).fill_(1): the strides asked for, every element 1. */
  static Fuzz.Check strided(long[] shape, long[] stride, DType dtype) {
    Fuzz.Check ones = filled("emptyStrided", shape, dtype, 1.0);
    return (result, in) -> {
      if (!Arrays.equals(((Tensor) result).stride(), stride)) {
        throw new AssertionError("emptyStrided gave strides " + Arrays.toString(((Tensor) result).stride()) + ", asked " + Arrays.toString(stride));
      }
      ones.verify(result, in);
    };
  }

  /** Whether a factory takes this shape: no negative size. */
  static boolean sizes(long[] shape) {
    for (long s : shape) if (s < 0) return false;
    return true;
  }

  /** Whether the dtype holds v without overflow (a float: finite within range, or NaN or infinite; bool: anything). */
  static boolean fits(double v, DType t) {
    if (t == DType.BOOL) return true;
    if (t.isFloatingPoint()) return !Double.isFinite(v) || Math.abs(v) <= max(t);
    double hi = t == DType.UINT8 ? 255 : Math.pow(2, 8 * t.itemSize() - 1) - 1;
    return Double.isFinite(v) && v >= min(t) && v <= hi && v < 0x1p63;
  }

  private static double max(DType t) {
    switch (t) {
      case FLOAT16: return 65504;
      case BFLOAT16: return 0x1.fep127;
      case FLOAT32: return Float.MAX_VALUE;
      default: return Double.MAX_VALUE;
    }
  }

  private static double min(DType t) {
    return t == DType.UINT8 ? 0 : -Math.pow(2, 8 * t.itemSize() - 1);
  }
}
