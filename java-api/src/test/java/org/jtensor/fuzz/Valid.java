package org.jtensor.fuzz;

import org.jtensor.DType;

/** What makes a call valid by construction: live tensors, shapes that broadcast, dtypes an op takes. */
final class Valid {
  private Valid() {}

  static boolean open(Pool.Entry e) {
    return e != null && !e.t().isClosed();
  }

  /** Every tensor open, and their shapes broadcast together. */
  static boolean broadcast(Pool.Entry... es) {
    long[] s = new long[0];
    for (Pool.Entry e : es) {
      if (!open(e) || !broadcasts(s, e.t().shape())) return false;
      s = Refs.broadcast(s, e.t().shape());
    }
    return true;
  }

  static boolean broadcasts(long[] a, long[] b) {
    for (int i = 1; i <= Math.min(a.length, b.length); i++) {
      long x = a[a.length - i], y = b[b.length - i];
      if (x != y && x != 1 && y != 1) return false;
    }
    return true;
  }

  /** b broadcasts to a's shape without changing it (an in-place or out= operand). */
  static boolean broadcastsTo(Pool.Entry b, long[] shape) {
    return open(b) && b.t().dim() <= shape.length && broadcasts(shape, b.t().shape())
        && java.util.Arrays.equals(Refs.broadcast(shape, b.t().shape()), shape);
  }

  static boolean sameDtype(Pool.Entry... es) {
    for (Pool.Entry e : es) if (!open(e) || e.t().dtype() != es[0].t().dtype()) return false;
    return true;
  }

  static boolean isBool(Pool.Entry e) {
    return open(e) && e.t().dtype() == DType.BOOL;
  }

  static boolean floating(Pool.Entry e) {
    return open(e) && e.t().dtype().isFloatingPoint();
  }

  /** A dim in [-max(rank, 1), max(rank, 1)): PyTorch's wrap, a 0-dim tensor taking 0 and -1. */
  static boolean dim(int d, int rank) {
    int n = Math.max(rank, 1);
    return d >= -n && d < n;
  }

  /** PyTorch's can_cast of a computed dtype to an output's: no floating to integral, nothing but bool to bool. */
  static boolean canCast(DType from, Pool.Entry out) {
    if (!open(out)) return false;
    DType to = out.t().dtype();
    if (from.isFloatingPoint() && !to.isFloatingPoint()) return false;
    return from == DType.BOOL || to != DType.BOOL;
  }

  /** True division's result type: the promoted type, or the default float for integers. */
  static DType floatResult(Pool.Entry x, Pool.Entry y) {
    DType t = x.t().resultType(y.t());
    return t.isFloatingPoint() ? t : DType.FLOAT32;
  }

  /** No element of y (a tensor or a Long scalar) is 0 as the compute dtype wraps it (integer division). */
  static boolean noZero(Object y, DType comp) {
    for (long v : longs(y)) if (Vals.wrap(v, comp) == 0) return false;
    return true;
  }

  /** No element of y is negative (an integer power). */
  static boolean noNegative(Object y) {
    for (long v : longs(y)) if (v < 0) return false;
    return true;
  }

  private static long[] longs(Object y) {
    if (y instanceof Pool.Entry e) return e.t().toLongArray();
    return new long[] {y instanceof Long v ? v : (long) (double) (Double) y};
  }

  /** The tensor's elements sit at distinct storage positions (no expanded or overlapping view): it can be written. */
  static boolean distinctElements(Pool.Entry e) {
    if (!open(e)) return false;
    long[] shape = e.t().shape(), stride = e.t().stride();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    long n = e.t().numel();
    for (long k = 0; k < n; k++) {
      long[] idx = Vals.unflat(k, shape);
      long pos = 0;
      for (int d = 0; d < idx.length; d++) pos += idx[d] * stride[d];
      if (!seen.add(pos)) return false;
    }
    return true;
  }

  /** A dim of size above 1 with stride 0: elements that PyTorch knows share memory, so it refuses to write them. */
  static boolean expanded(Pool.Entry e) {
    long[] shape = e.t().shape(), stride = e.t().stride();
    if (e.t().numel() == 0) return false;  // nothing to write: PyTorch does not refuse
    for (int d = 0; d < shape.length; d++) if (shape[d] > 1 && stride[d] == 0) return true;
    return false;
  }

  /** y may be read while target is written: the same tensor, or another storage. */
  static boolean noOverlap(Pool.Entry target, Pool.Entry y) {
    return open(target) && open(y) && (target.t() == y.t() || !target.t().isAliasOf(y.t()));
  }

  /** y shares no storage with target (the index ops refuse even the same tensor, as PyTorch's assert_no_overlap). */
  static boolean apart(Pool.Entry target, Pool.Entry y) {
    return open(target) && open(y) && !target.t().isAliasOf(y.t());
  }

  /**
   * Whether a scalar parameter (alpha, beta, a bound) converts to dtype t as PyTorch's checked
   * conversion allows: a float within its range (or not finite); an integer-valued one, read as an
   * int as jtensor's API reads it, within the dtype (uint8 also taking -255..-1, wrapped); another
   * one within the dtype's range (then truncated); anything for bool.
   */
  static boolean converts(double v, DType t) {
    if (t.isFloatingPoint() || t == DType.BOOL || v != Math.rint(v) || Math.abs(v) >= 0x1p63) return FactoryRefs.fits(v, t);
    return t == DType.UINT8 ? Math.abs((long) v) <= 255 : FactoryRefs.fits(v, t);
  }

  /** An open int64 index tensor whose values all lie in [lo, hi). */
  static boolean indices(Pool.Entry idx, long lo, long hi) {
    if (!open(idx) || idx.t().dtype() != DType.INT64) return false;
    for (long v : idx.t().toLongArray()) if (v < lo || v >= hi) return false;
    return true;
  }
}
