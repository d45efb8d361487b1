package org.jtensor.fuzz;

import org.jtensor.DType;

/** References for clamp, lerp and where: each element from its operands' elements, broadcast, in the result's dtype. */
final class TernaryRefs {
  private TernaryRefs() {}

  /** What one element of the result is, from the operands' elements (as the result's dtype stores them). */
  private interface Elem {
    double apply(double[] xs);
  }

  /**
   * The operands (Pool.Entry, or a Double for a scalar) broadcast and combined by f: exactly (a
   * selection: clamp, where), or within the dtype's tolerance of the operands' magnitude (lerp).
   */
  private static Fuzz.Check elementwise(String what, Object[] operands, boolean exact, Elem f) {
    return elementwise(what, operands, exact, false, f);
  }

  /** scalarInMathType: a scalar operand of a float16/bfloat16 result is read in float32, its math type (lerp's weight). */
  private static Fuzz.Check elementwise(String what, Object[] operands, boolean exact, boolean scalarInMathType, Elem f) {
    return (result, in) -> {
      Vals r = Vals.of(result);
      Vals[] v = new Vals[operands.length];
      long[] shape = new long[0];
      for (int k = 0; k < v.length; k++) {
        if (operands[k] instanceof Pool.Entry e) {
          v[k] = in.of(e);
          shape = Refs.broadcast(shape, v[k].shape);
        }
      }
      Vals.expectShape(shape, r, what);
      double[] xs = new double[v.length];
      for (int i = 0; i < r.numel(); i++) {
        long[] idx = Vals.unflat(i, shape);
        for (int k = 0; k < v.length; k++) {
          DType scalarType = scalarInMathType && r.dtype != DType.FLOAT64 ? DType.FLOAT32 : r.dtype;
          xs[k] = v[k] == null ? Vals.round((Double) operands[k], scalarType)
              : Vals.round(v[k].d[Vals.flat(Refs.squash(idx, v[k].shape), v[k].shape)], r.dtype);
        }
        double e = Vals.round(f.apply(xs), r.dtype), scale = Math.abs(e);
        for (double x : xs) scale += Math.abs(x);
        if (!Vals.close(r.d[i], e, exact ? 0 : Vals.rtol(r.dtype) * scale + Vals.atol(r.dtype))) {
          throw Vals.mismatch(what + " of " + java.util.Arrays.toString(xs), i, r.d[i], e);
        }
      }
    };
  }

  /**
   * clamp(lo, hi) with scalar bounds: a NaN bound is no bound (jtensor's clampMin/clampMax); lo above
   * hi gives hi. A bound is converted to the result's dtype, which PyTorch refuses when it overflows
   * (a float: beyond the finite range; an integer: beyond the dtype, uint8 taking -255..255 wrapped).
   * The bounds here are doubles, Python floats: any of them promotes an integer x to float32 (and is
   * refused in place, where the dtype cannot change), as PyTorch's clamp(int, 0.0, 3.0).
   */
  static Fuzz.Check clamp(Pool.Entry x, double lo, double hi) {
    return (result, in) -> {
      DType t = ((org.jtensor.Tensor) result).dtype();
      if (!t.isFloatingPoint() && !(Double.isNaN(lo) && Double.isNaN(hi))) {
        throw new AssertionError("clamp by a float bound gave " + t + ": PyTorch promotes to float32");
      }
      double[] b = {lo, hi};
      for (int k = 0; k < 2; k++) {
        if (Double.isNaN(b[k])) continue;
        if (!holds(b[k], t)) {
          throw new AssertionError("clamp gave " + t + " under the bound " + b[k] + ": PyTorch refuses a bound that overflows"
              + " the dtype, and promotes a fractional one (refused in place)");
        }
        b[k] = t.isFloatingPoint() ? Vals.round(b[k], t) : Vals.wrap((long) b[k], t);
      }
      elementwise("clamp", new Object[] {x}, true, xs -> clampOne(xs[0], b[0], b[1])).verify(result, in);
    };
  }

  /**
   * clampMin(lo): clamp(lo, none), except that a NaN bound is a bound: PyTorch's clamp_min(x, nan) is
   * NaN everywhere, in a floating dtype (an integer x promotes, a Python float bound).
   */
  static Fuzz.Check clampMin(Pool.Entry x, double lo) {
    if (!Double.isNaN(lo)) return clamp(x, lo, Double.NaN);
    return (result, in) -> {
      DType t = ((org.jtensor.Tensor) result).dtype();
      if (!t.isFloatingPoint()) throw new AssertionError("clampMin(nan) gave " + t + ": PyTorch promotes to a floating dtype");
      elementwise("clampMin", new Object[] {x}, true, xs -> Double.NaN).verify(result, in);
    };
  }

  /**
   * Whether a clamp of x by these (float) bounds is valid by construction: x open and not bool, each
   * bound held by the result's dtype (x's if floating, else float32, to which a float bound promotes x).
   */
  static boolean clampTakes(Pool.Entry x, double lo, double hi) {
    if (!Valid.open(x) || x.t().dtype() == DType.BOOL) return false;
    DType r = x.t().dtype().isFloatingPoint() ? x.t().dtype() : DType.FLOAT32;
    return (Double.isNaN(lo) || holds(lo, r)) && (Double.isNaN(hi) || holds(hi, r));
  }

  /**
   * Whether where(c, x, b) takes the float scalar b: the result's dtype (x's if floating, else
   * float32) holds it, checked as PyTorch's fill of it is (a 16-bit float result takes any value).
   */
  static boolean whereTakes(Pool.Entry x, double b) {
    if (!Valid.open(x)) return false;
    DType r = x.t().dtype().isFloatingPoint() ? x.t().dtype() : DType.FLOAT32;
    return r == DType.FLOAT16 || r == DType.BFLOAT16 || Valid.converts(b, r);
  }

  /** clampTakes in place: the result keeps x's dtype, so a float bound needs a floating x. */
  static boolean clampTakesInPlace(Pool.Entry x, double lo, double hi) {
    return clampTakes(x, lo, hi) && (x.t().dtype().isFloatingPoint() || (Double.isNaN(lo) && Double.isNaN(hi)));
  }

  /** A bound the dtype holds: a convertible one, and for an integer dtype an integer (a fractional one promotes). */
  static boolean holds(double b, DType t) {
    return Valid.converts(b, t) && (t.isFloatingPoint() || b == Math.rint(b));
  }

  /** clamp with tensor bounds: a NaN anywhere gives NaN (PyTorch's clamp propagates NaN from its bounds). */
  static Fuzz.Check clampTensors(Pool.Entry x, Pool.Entry lo, Pool.Entry hi) {
    return elementwise("clamp", new Object[] {x, lo, hi}, true, xs -> Double.isNaN(xs[1]) || Double.isNaN(xs[2]) ? Double.NaN
        : clampOne(xs[0], xs[1], xs[2]));
  }

  private static double clampOne(double x, double lo, double hi) {
    if (Double.isNaN(x)) return x;
    double v = Double.isNaN(lo) ? x : Math.max(x, lo);
    return Double.isNaN(hi) ? v : Math.min(v, hi);
  }

  /** lerp: x + w (e - x) for w below 0.5, e - (e - x)(1 - w) above, as PyTorch computes it; w is a Pool.Entry or a Double. */
  static Fuzz.Check lerp(Pool.Entry x, Pool.Entry e, Object w) {
    return (result, in) -> {
      boolean f64 = ((org.jtensor.Tensor) result).dtype() == DType.FLOAT64;
      elementwise("lerp", new Object[] {x, e, w}, false, true, xs -> {
        double a = xs[0], b = xs[1], wt = xs[2];
        if (f64) return Math.abs(wt) < 0.5 ? a + wt * (b - a) : b - (b - a) * (1 - wt);
        float fa = (float) a, fb = (float) b, fw = (float) wt;  // PyTorch's math type below float64: an overflow shows
        return Math.abs(fw) < 0.5f ? fa + fw * (fb - fa) : fb - (fb - fa) * (1 - fw);
      }).verify(result, in);
    };
  }

  /** where(c, a, b): a where c is true, else b; b a Pool.Entry or a Double. */
  static Fuzz.Check where(Pool.Entry c, Pool.Entry a, Object b) {
    Fuzz.Check values = elementwise("where", new Object[] {c, a, b}, true, xs -> xs[0] != 0 ? xs[1] : xs[2]);
    return (result, in) -> {
      if (in.of(c).dtype != DType.BOOL) throw new AssertionError("where took a " + in.of(c).dtype + " condition");
      values.verify(result, in);
    };
  }
}
