package org.jtensor.fuzz;

import java.util.Arrays;
import org.jtensor.DType;

/**
 * view(dtype): the same bytes read as another dtype (little-endian). Same item size: the same shape;
 * otherwise the last dim (stride 1) holds size * old / new items. Each input's bytes come from its
 * value, except a NaN's (its payload is not known from the value): result items over them are skipped.
 */
final class ViewDtypeRef {
  private ViewDtypeRef() {}

  /**
   * The shape of x.view(to), or null where PyTorch refuses it: 0-dim, a last dim not of stride 1,
   * or (to a wider type) a last size, storage offset or other stride that the ratio does not divide.
   */
  static long[] shape(long[] s, long[] stride, long offset, DType from, DType to) {
    int a = from.itemSize(), b = to.itemSize();
    if (a == b) return s.clone();
    if (s.length == 0 || stride[s.length - 1] != 1 || (s[s.length - 1] * a) % b != 0 || (offset * a) % b != 0) return null;
    for (int i = 0; i < s.length - 1; i++) if ((stride[i] * a) % b != 0) return null;
    long[] r = s.clone();
    r[s.length - 1] = s[s.length - 1] * a / b;
    return r;
  }

  static Fuzz.Check check(Pool.Entry x, DType to) {
    return (result, in) -> {
      Vals v = in.of(x), r = Vals.of(result);
      long[] want = shape(v.shape, x.t().stride(), x.t().storageOffset(), v.dtype, to);
      if (want == null) throw new AssertionError("view(" + to + ") accepted a layout PyTorch refuses");
      Vals.expectShape(want, r, "view(dtype)");
      if (r.dtype != to) throw new AssertionError("view(dtype) gave " + r.dtype);
      int a = v.dtype.itemSize(), b = to.itemSize();
      byte[] bytes = new byte[v.numel() * a];
      boolean[] known = new boolean[bytes.length];
      for (int i = 0; i < v.numel(); i++) {
        long bits = bits(v, i);
        boolean nan = !v.integral() && Double.isNaN(v.d[i]);
        for (int k = 0; k < a; k++) {
          bytes[i * a + k] = (byte) (bits >>> (8 * k));
          known[i * a + k] = !nan;
        }
      }
      for (int o = 0; o < r.numel(); o++) {
        long bits = 0;
        boolean all = true;
        for (int k = 0; k < b; k++) {
          bits |= (bytes[o * b + k] & 0xffL) << (8 * k);
          all &= known[o * b + k];
        }
        if (!all) continue;
        if (r.integral() ? r.l[o] != Vals.wrap(bits, to) : Double.compare(r.d[o], value(bits, to)) != 0
            && !(Double.isNaN(r.d[o]) && Double.isNaN(value(bits, to)))) {
          throw Vals.mismatch("view(" + to + ") of bits " + Long.toHexString(bits) + " from " + Arrays.toString(v.shape), o,
              r.integral() ? r.l[o] : r.d[o], r.integral() ? Vals.wrap(bits, to) : value(bits, to));
        }
      }
    };
  }

  /** The bits of element i as its dtype stores it. */
  private static long bits(Vals v, int i) {
    switch (v.dtype) {
      case FLOAT64: return Double.doubleToRawLongBits(v.d[i]);
      case FLOAT32: return Float.floatToRawIntBits((float) v.d[i]) & 0xffffffffL;
      case BFLOAT16: return Float.floatToRawIntBits((float) v.d[i]) >>> 16;
      case FLOAT16: return halfBits(v.d[i]);
      default: return v.l[i];
    }
  }

  private static double value(long bits, DType t) {
    switch (t) {
      case FLOAT64: return Double.longBitsToDouble(bits);
      case FLOAT32: return Float.intBitsToFloat((int) bits);
      case BFLOAT16: return Float.intBitsToFloat((int) (bits << 16));
      default: return half(bits);
    }
  }

  /** An exact float16 value's bits (NaN as the canonical quiet NaN). */
  static long halfBits(double v) {
    long sign = Double.doubleToRawLongBits(v) < 0 ? 0x8000 : 0;
    double a = Math.abs(v);
    if (Double.isNaN(v)) return 0x7e00;
    if (Double.isInfinite(a)) return sign | 0x7c00;
    if (a < 0x1p-14) return sign | (long) (a / 0x1p-24);  // subnormal (and zero)
    int e = Math.getExponent(a);
    return sign | ((long) (e + 15) << 10) | (long) ((a / Math.scalb(1.0, e) - 1) * 1024);
  }

  static double half(long bits) {
    double sign = (bits & 0x8000) != 0 ? -1 : 1;
    int e = (int) ((bits >> 10) & 0x1f);
    long m = bits & 0x3ff;
    if (e == 0x1f) return m == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
    if (e == 0) return sign * m * 0x1p-24;
    return sign * (1 + m / 1024.0) * Math.scalb(1.0, e - 15);
  }
}
