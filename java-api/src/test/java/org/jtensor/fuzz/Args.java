package org.jtensor.fuzz;

import java.util.Random;
import org.jtensor.DType;
import org.jtensor.Tensor;

/** Random arguments, mostly valid and sometimes not: dims, shapes, dtypes, scalars, index tensors. */
final class Args {
  private static final DType[] DTYPES = DType.values();
  private static final DType[] FLOATS = {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64};
  private static final double[] ODD_DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
      -0.0, 1e300, -1e300, 1e-320, 65504, 3e38, 0.5};
  private static final long[] ODD_LONGS = {Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE,
      0, -1, 255, 256, -129, 1L << 40};
  private static final int[] ODD_DIMS = {Integer.MIN_VALUE, Integer.MAX_VALUE, 64, -65};

  private final Fuzz f;
  private final Random rnd;

  Args(Fuzz f) {
    this.f = f;
    this.rnd = f.rnd;
  }

  boolean chance(int oneIn) {
    return rnd.nextInt(oneIn) == 0;
  }

  int between(int lo, int hi) {
    return lo + rnd.nextInt(hi - lo + 1);
  }

  DType dtype() {
    return chance(3) ? DType.FLOAT32 : DTYPES[rnd.nextInt(DTYPES.length)];
  }

  DType floatType() {
    return FLOATS[rnd.nextInt(FLOATS.length)];
  }

  /** A receiver from the pool (it may be closed). */
  Pool.Entry input() {
    return f.pool.pick();
  }

  /** A tensor argument from the pool (it may be closed); now and then null, to test null handling. */
  Pool.Entry arg() {
    return chance(300) ? null : f.pool.pick();
  }

  /** The rank of an input; a guess for a closed or null one. */
  int rank(Pool.Entry e) {
    return e == null || e.t().isClosed() ? rnd.nextInt(4) : e.t().dim();
  }

  long size(Pool.Entry e, int dim) {
    if (e == null || e.t().isClosed() || e.t().dim() == 0) return between(0, 3);
    int r = e.t().dim();
    return e.t().shape()[((dim % r) + r) % r];
  }

  /** A dim for a tensor of this rank: usually valid (negative too), sometimes out of range. */
  int dim(int rank) {
    if (chance(25)) return chance(2) ? ODD_DIMS[rnd.nextInt(ODD_DIMS.length)] : (chance(2) ? Math.max(rank, 1) : -Math.max(rank, 1) - 1);
    int n = Math.max(rank, 1);
    int d = rnd.nextInt(n);
    return chance(3) ? d - n : d;
  }

  int[] dims(int rank) {
    int[] ds = new int[rnd.nextInt(Math.max(rank, 1) + 1)];
    for (int i = 0; i < ds.length; i++) ds[i] = dim(rank);
    return ds;
  }

  /** A small shape of rank 0..3 (sizes 0..4, rarely 0); negative sizes when invalid is asked. */
  long[] shape() {
    long[] s = new long[rnd.nextInt(4)];
    for (int i = 0; i < s.length; i++) s[i] = chance(15) ? 0 : between(1, 4);
    if (chance(40) && s.length > 0) s[rnd.nextInt(s.length)] = chance(2) ? -1 : -between(2, 5);
    return s;
  }

  double scalar() {
    if (chance(15)) return ODD_DOUBLES[rnd.nextInt(ODD_DOUBLES.length)];
    return chance(2) ? between(-4, 4) : Math.round((rnd.nextDouble() * 6 - 3) * 8) / 8.0;
  }

  long longScalar() {
    return chance(15) ? ODD_LONGS[rnd.nextInt(ODD_LONGS.length)] : between(-4, 4);
  }

  /** A long index near a size: usually in [-size, size), sometimes just outside or far away. */
  long index(long size) {
    if (chance(12)) return chance(3) ? ODD_LONGS[rnd.nextInt(ODD_LONGS.length)] : (chance(2) ? size : -size - 1);
    if (size <= 0) return 0;
    long i = rnd.nextInt((int) Math.min(size, 1 << 20));
    return chance(3) ? i - size : i;
  }

  /** A fresh contiguous tensor of small values (integers for integral dtypes, eighths for floats). */
  Tensor fresh(long[] shape, DType dtype) {
    return build(values(shape, dtype), shape, dtype);
  }

  /** The values of a fresh tensor: eighths in [-3, 3] for floats, integers in [-4, 4] (uint8: [0, 4], bool: 0 and 1). */
  double[] values(long[] shape, DType dtype) {
    long n = 1;
    for (long s : shape) n *= Math.max(s, 0);
    double[] v = new double[(int) n];
    for (int i = 0; i < v.length; i++) {
      v[i] = dtype.isFloatingPoint() ? Math.round((rnd.nextDouble() * 6 - 3) * 8) / 8.0 : between(-4, 4);
      if (dtype == DType.UINT8 || dtype == DType.BOOL) v[i] = Math.abs(v[i]) % 2 == 0 ? Math.abs(v[i]) : 1;
    }
    return v;
  }

  /** These values (exact in every dtype) as a tensor of this shape and dtype. */
  static Tensor build(double[] v, long[] shape, DType dtype) {
    try (Tensor d = Tensor.fromArray(v, shape)) {
      return d.to(dtype);
    }
  }

  /** An int64 index tensor of this shape with values for a dim of this size (some out of range). */
  Tensor indexTensor(long[] shape, long bound) {
    long n = 1;
    for (long s : shape) n *= s;
    long[] v = new long[(int) n];
    boolean bad = chance(10);
    for (int i = 0; i < v.length; i++) v[i] = bad ? index(bound) : (bound <= 0 ? 0 : rnd.nextInt((int) bound));
    Tensor t = Tensor.fromArray(v, shape);
    if (!chance(20)) return t;
    try (t) {
      return t.to(chance(2) ? DType.INT32 : DType.FLOAT32);  // int32 or float indices: sometimes accepted, else refused
    }
  }
}
