package org.jtensor.fuzz;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import org.jtensor.DType;

/**
 * Plain-Java references for elementwise results and for ops that only move values: computed from
 * the inputs' values in the computation dtype, compared with the result within the dtype's tolerance.
 */
final class Refs {
  private Refs() {}

  /** The result shows x's values in row-major order (view, reshape, contiguous, clone...). */
  static Fuzz.Check sameValues(Pool.Entry x) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      if (r.numel() != v.numel() || r.dtype != v.dtype) throw new AssertionError("numel or dtype changed");
      for (int i = 0; i < r.numel(); i++) {
        boolean same = v.integral() ? r.l[i] == v.l[i] : Double.compare(r.d[i], v.d[i]) == 0;
        if (!same) throw Vals.mismatch("values", i, r.d[i], v.d[i]);
      }
    };
  }

  /** f applied to each element; elements with |x| above maxAbs are not compared (float kernels approximate there). */
  static Fuzz.Check unary(Pool.Entry x, DoubleUnaryOperator fd, LongUnaryOperator fl, double maxAbs) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      Vals.expectShape(v.shape, r, "unary");
      boolean exact = r.integral() && v.integral() && fl != null;
      for (int i = 0; i < r.numel(); i++) {
        if (exact) {
          long y = fl.applyAsLong(v.l[i]);
          long e = r.dtype == DType.BOOL ? y & 1 : Vals.wrap(y, r.dtype);  // bitwiseNot of bool is logical not
          if (r.l[i] != e) throw Vals.mismatch("unary", i, r.l[i], e);
          continue;
        }
        double arg = r.dtype.isFloatingPoint() ? Vals.round(v.d[i], r.dtype) : v.d[i];
        if (!(Math.abs(arg) <= maxAbs)) continue;
        double e = Vals.round(fd.applyAsDouble(arg), r.dtype);
        if (!Vals.close(r.d[i], e, Vals.rtol(r.dtype) * Math.abs(e) + Vals.atol(r.dtype))) {
          throw Vals.mismatch("unary of " + arg, i, r.d[i], e);
        }
      }
    };
  }

  /**
   * a op b with broadcasting; b is a Pool.Entry, a Double or a Long. Computed in the inputs' promoted
   * dtype (fl, when not null, gives integer results exactly; compare ops give 0/1), then stored as the
   * result's dtype stores it: an out= or in-place result may be wider or narrower than the promoted type.
   */
  static Fuzz.Check binary(Pool.Entry a, Object b, DoubleBinaryOperator fd, LongBinaryOperator fl, boolean compare) {
    return binary(a, b, fd, fl, compare, false);
  }

  /**
   * scalarInTensorDtype: a scalar b is rounded to a float16/bfloat16 computation's own dtype first, as
   * PyTorch's add, sub and remainder do (float16 inf - (2^63 - 1) is NaN: the scalar is inf); mul and
   * the divisions read it in float32, their math type.
   */
  static Fuzz.Check binary(Pool.Entry a, Object b, DoubleBinaryOperator fd, LongBinaryOperator fl, boolean compare,
                           boolean scalarInTensorDtype) {
    return (result, in) -> {
      Vals r = Vals.of(result), va = in.of(a);
      Vals vb = b instanceof Pool.Entry e ? in.of(e) : null;
      DType comp = vb != null ? a.t().resultType(((Pool.Entry) b).t())
          : b instanceof Long v ? a.t().resultType((long) v) : a.t().resultType((double) (Double) b);
      if (compare && r.dtype != DType.BOOL) throw new AssertionError("comparison gave " + r.dtype);
      long[] shape = vb == null ? va.shape : broadcast(va.shape, vb.shape);
      Vals.expectShape(shape, r, "binary");
      boolean exact = !comp.isFloatingPoint() && fl != null;
      // a 0-dim second operand of another dtype is read as a scalar is (PyTorch's is_scalar(2) path,
      // its original value in the math type): float16 [-0.0] * bfloat16 tensor(65536) is -0.0, not NaN
      boolean wrappedScalar = vb != null && vb.shape.length == 0 && va.shape.length > 0 && vb.dtype != comp;
      DType fcomp = comp.isFloatingPoint() ? comp : DType.FLOAT32;  // true division of integers: in the default float
      double tol = Math.max(Vals.rtol(fcomp), Vals.rtol(r.dtype));
      for (int i = 0; i < r.numel(); i++) {
        long[] idx = Vals.unflat(i, shape);
        int ia = Vals.flat(squash(idx, va.shape), va.shape);
        int ib = vb == null ? 0 : Vals.flat(squash(idx, vb.shape), vb.shape);
        if (exact) {
          long y = vb != null ? vb.l[ib] : b instanceof Long v ? v : (long) (double) (Double) b;
          long x = Vals.wrap(va.l[ia], comp);
          y = Vals.wrap(y, comp);
          if (y == 0 && (fl == (Object) FLOOR_DIV || fl == (Object) FLOOR_MOD || fl == (Object) TRUNC_DIV)) continue;  // a scalar that wraps to 0: see the report
          Vals.expectExact(r, i, Vals.wrap(fl.applyAsLong(x, y), compare ? DType.BOOL : comp), "binary of " + x + ", " + y);
          continue;
        }
        double x = Vals.round(va.d[ia], fcomp);
        DType scalarType = fcomp == DType.FLOAT64 || scalarInTensorDtype ? fcomp : DType.FLOAT32;
        double y = vb == null ? Vals.round(b instanceof Long v ? (double) v : (Double) b, scalarType)
            : wrappedScalar ? Vals.round(vb.d[ib], scalarType) : Vals.round(vb.d[ib], fcomp);
        // trunc(x / y): the quotient rounds first, in float32 below float64 (PyTorch's math type)
        double e = fd == TRUNC ? trunc(Vals.round(x / y, fcomp == DType.FLOAT64 ? fcomp : DType.FLOAT32)) : fd.applyAsDouble(x, y);
        if (compare) {
          if (r.d[i] != e) throw Vals.mismatch("compare of " + x + ", " + y, i, r.d[i], e);
          continue;
        }
        e = Vals.round(Vals.round(e, fcomp), r.dtype);
        if (!Vals.close(r.d[i], e, tol * Math.abs(e) + Math.max(Vals.atol(fcomp), Vals.atol(r.dtype)))) {
          throw Vals.mismatch("binary of " + x + ", " + y, i, r.d[i], e);
        }
      }
    };
  }

  /**
   * An in-place or out= op: it returns its target, and the target holds what the out-of-place
   * reference gives from the inputs' values before the call, stored in the target's dtype.
   */
  /**
   * An in-place write whose reference places every value by storage position itself (fill_, one
   * element's store, a copy into a basic-index view): the target returned, then the reference.
   */
  static Fuzz.Check writesShared(Pool.Entry target, Fuzz.Check ref) {
    return (result, in) -> {
      if (result != target.t()) throw new AssertionError("returned " + result + " instead of the tensor it writes");
      ref.verify(result, in);
    };
  }

  static Fuzz.Check writes(Pool.Entry target, Fuzz.Check ref) {
    return (result, in) -> {
      writesShared(target, (r, i) -> { }).verify(result, in);
      if (Valid.expanded(target)) throw new AssertionError("wrote into an expanded tensor (a stride-0 dim): PyTorch refuses");
      // Elements that share memory, or an input over the target's storage (PyTorch refuses only the
      // overlaps it can see): the order of the writes decides, and PyTorch leaves it open.
      if (Valid.distinctElements(target) && !in.aliased(target.t())) ref.verify(result, in);
    };
  }

  static final LongBinaryOperator FLOOR_DIV = Math::floorDiv, FLOOR_MOD = Math::floorMod, TRUNC_DIV = (x, y) -> x / y;
  static final DoubleBinaryOperator TRUNC = (x, y) -> trunc(x / y);

  static double trunc(double q) {
    return q < 0 ? Math.ceil(q) : Math.floor(q);
  }

  /** PyTorch's broadcast of two shapes (the op already succeeded, so they broadcast). */
  static long[] broadcast(long[] a, long[] b) {
    long[] s = new long[Math.max(a.length, b.length)];
    for (int i = 0; i < s.length; i++) {
      long x = i < s.length - a.length ? 1 : a[i - (s.length - a.length)];
      long y = i < s.length - b.length ? 1 : b[i - (s.length - b.length)];
      s[i] = x == 1 ? y : x;
    }
    return s;
  }

  /** The index into a broadcast operand of this shape for an index into the broadcast result. */
  static long[] squash(long[] idx, long[] shape) {
    long[] r = new long[shape.length];
    int lead = idx.length - shape.length;
    for (int i = 0; i < shape.length; i++) r[i] = shape[i] == 1 ? 0 : idx[lead + i];
    return r;
  }
}
