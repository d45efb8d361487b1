package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A double becomes float16 or bfloat16 in one place (native jt::convert): a scalar operand (of
 * add), a fill and a copy from float64 all give the same bits, and those bits are the double rounded
 * once to nearest-even, as an independent reference written here computes them.
 */
class HalfConversionTest {
  @Test
  void theIssuesExampleRoundsOnce() {
    double v = 1 + 0x1p-11 + 0x1p-40;  // just above the halfway point between 1 and 1 + 2^-10
    assertEquals(0x3c01, scalarOperandBits(DType.FLOAT16, v));
    assertEquals(0x3c01, fillBits(DType.FLOAT16, v));
    assertEquals(0x3c01, copyBits(DType.FLOAT16, v));
  }

  @Test
  void everyPathAgreesWithTheReferenceBitForBit() {
    SplittableRandom rng = new SplittableRandom(20261123);
    for (DType t : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
      double[] values = samples(t, rng);
      long[] viaCopy = copyBits(t, values);
      for (int i = 0; i < values.length; i++) {
        double v = values[i];
        int want = reference(t, v);
        String what = t + " of " + v + " (" + Long.toHexString(Double.doubleToRawLongBits(v)) + ")";
        assertEquals(want, viaCopy[i], "copy_ from float64, " + what);
        if (i % 16 == 0) {  // the per-element paths cost a call each: a sample of them
          assertEquals(want, scalarOperandBits(t, v), "scalar operand, " + what);
          boolean fits = !(Math.abs(v) > maxFinite(t)) || Double.isInfinite(v);  // full refuses the rest, as torch.full does
          if (fits) assertEquals(want, fillBits(t, v), "full, " + what);
        }
      }
    }
  }

  /** Halfway cases, subnormals, the overflow edge and random doubles across the format's range. */
  private static double[] samples(DType t, SplittableRandom rng) {
    int mbits = t == DType.FLOAT16 ? 10 : 7, emin = t == DType.FLOAT16 ? -14 : -126, emax = t == DType.FLOAT16 ? 15 : 127;
    double[] v = new double[8192];
    int n = 0;
    for (int e = emin - mbits - 2; e <= emax + 1 && n < 4000; e++) {
      double q = Math.scalb(1.0, e - mbits);  // a unit in the last place at exponent e
      double base = Math.scalb(1.0, e);
      for (double frac : new double[] {0.5, 1.5, 0.5 + 0x1p-30, 1.5 - 0x1p-30, 0.25, 0.75}) {
        v[n++] = base + frac * q;
        v[n++] = -(base + frac * q);
      }
    }
    double max = maxFinite(t);
    v[n++] = max;
    v[n++] = max + Math.ulp((float) max);
    v[n++] = Double.NaN;
    v[n++] = Double.POSITIVE_INFINITY;
    v[n++] = Double.NEGATIVE_INFINITY;
    v[n++] = 0.0;
    while (n < v.length) {
      double m = 1 + rng.nextDouble();
      int e = emin - mbits - 1 + rng.nextInt(emax - emin + mbits + 3);
      v[n++] = (rng.nextBoolean() ? -1 : 1) * Math.scalb(m, e);
    }
    return v;
  }

  /** Rounds v once to nearest-even in the format, from the double's exact value. */
  static int reference(DType t, double v) {
    boolean half = t == DType.FLOAT16;
    int mbits = half ? 10 : 7, emin = half ? -14 : -126, bias = half ? 15 : 127;
    int sign = (Double.doubleToRawLongBits(v) < 0) ? 1 << 15 : 0;
    int infBits = half ? 0x7c00 : 0x7f80;
    if (Double.isNaN(v)) return half ? (sign | 0x7e00) : 0x7fc0;
    double a = Math.abs(v);
    if (Double.isInfinite(a)) return sign | infBits;
    if (a == 0) return sign;
    int e = Math.max(Math.getExponent(a), emin);
    double q = Math.scalb(1.0, e - mbits);
    double r = Math.rint(a / q) * q;  // a / q is exact: q is a power of two in double's range
    if (r > maxFinite(t)) return sign | infBits;
    if (r == 0) return sign;
    if (r < Math.scalb(1.0, emin)) return sign | (int) (r / Math.scalb(1.0, emin - mbits));  // subnormal
    int exp = Math.getExponent(r);
    int mant = (int) ((r / Math.scalb(1.0, exp) - 1) * (1 << mbits));
    return sign | (exp + bias) << mbits | mant;
  }

  private static double maxFinite(DType t) {
    return t == DType.FLOAT16 ? 65504 : 0x1.fep127;
  }

  /** zeros + v: add rounds its scalar to the tensor's dtype, as PyTorch's (mul and div keep it in float32, their math type). */
  private static long scalarOperandBits(DType t, double v) {
    try (Tensor zero = Tensor.zeros(new long[] {1}, t); Tensor r = zero.add(v)) {
      return bits(r)[0];
    }
  }

  private static long fillBits(DType t, double v) {
    try (Tensor r = Tensor.full(new long[] {1}, v, t)) {
      return bits(r)[0];
    }
  }

  private static long copyBits(DType t, double v) {
    return copyBits(t, new double[] {v})[0];
  }

  private static long[] copyBits(DType t, double[] v) {
    try (Tensor d = Tensor.fromArray(v, v.length); Tensor r = d.to(t)) {
      return bits(r);
    }
  }

  private static long[] bits(Tensor halfTensor) {
    try (Tensor asShort = halfTensor.view(DType.INT16); Tensor wide = asShort.to(DType.INT64)) {
      long[] out = wide.toLongArray();
      for (int i = 0; i < out.length; i++) out[i] &= 0xffff;
      return out;
    }
  }
}
