package org.jtensor.fuzz;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;

/** References for reductions (over any dims, keepdim) and for ops along one dim (softmax, cumsum). */
final class ReduceRefs {
  private ReduceRefs() {}

  /** What a reduction computes from one group of values (in row-major order) and its exact integers. */
  interface Reducer {
    double apply(double[] xs, long[] ls, DType resultType);
  }

  /** Reduce x over dims (empty: all), keepdim; integral results are compared exactly, floats within a tolerance. */
  static Fuzz.Check reduce(Pool.Entry x, int[] dims, boolean keepdim, Reducer f, double tolScale) {
    return reduce(x, dims, keepdim, f, tolScale, false);
  }

  /** any/all: PyTorch 2.13 reduces no dim for an empty dims list (noneWhenEmpty), where sum reduces them all. */
  static Fuzz.Check reduce(Pool.Entry x, int[] dims, boolean keepdim, Reducer f, double tolScale, boolean noneWhenEmpty) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      boolean[] red = noneWhenEmpty && dims != null && dims.length == 0 ? new boolean[v.shape.length] : reduced(v.shape.length, dims);
      List<long[]> outShape = new ArrayList<>();
      long[] keep = v.shape.clone();
      for (int d = 0; d < keep.length; d++) if (red[d]) keep[d] = 1;
      for (int d = 0; d < keep.length; d++) if (!red[d] || keepdim) outShape.add(new long[] {keep[d]});
      long[] shape = outShape.stream().mapToLong(s -> s[0]).toArray();
      Vals.expectShape(shape, r, "reduction");
      List<List<Integer>> groups = groups(v.shape, keep, r.numel());
      for (int o = 0; o < r.numel(); o++) {
        List<Integer> g = groups.get(o);
        double[] xs = new double[g.size()];
        long[] ls = v.integral() ? new long[g.size()] : null;
        double abs = 0;
        for (int k = 0; k < xs.length; k++) {
          xs[k] = v.d[g.get(k)];
          if (ls != null) ls[k] = v.l[g.get(k)];
          if (Double.isFinite(xs[k])) abs += Math.abs(xs[k]);  // the tolerance's scale: an infinity or NaN must not make it NaN
        }
        double e = f.apply(xs, ls, r.dtype);
        if (r.integral()) {
          if (Math.abs(e) < 0x1p52 && r.l[o] != (long) e) throw Vals.mismatch("reduction", o, r.l[o], e);
          continue;
        }
        e = Vals.round(e, r.dtype);
        double tol = Vals.rtol(r.dtype) * Math.abs(e) + Vals.atol(r.dtype) + (tolScale == 0 ? 0 : tolScale * 3e-5 * abs);
        if (!Vals.close(r.d[o], e, tol)) throw Vals.mismatch("reduction", o, r.d[o], e);
      }
    };
  }

  /** For each output position (row-major over keep), the input positions that reduce into it. */
  static List<List<Integer>> groups(long[] shape, long[] keep, int outNumel) {
    List<List<Integer>> groups = new ArrayList<>();
    for (int o = 0; o < outNumel; o++) groups.add(new ArrayList<>());
    long n = 1;
    for (long s : shape) n *= s;
    for (int i = 0; i < n; i++) {
      long[] idx = Vals.unflat(i, shape);
      for (int d = 0; d < idx.length; d++) if (keep[d] == 1) idx[d] = 0;
      groups.get(Vals.flat(idx, keep)).add(i);
    }
    return groups;
  }

  static boolean[] reduced(int rank, int[] dims) {
    boolean[] red = new boolean[rank];
    if (rank == 0) return red;
    if (dims == null || dims.length == 0) java.util.Arrays.fill(red, true);
    else for (int d : dims) red[d < 0 ? d + rank : d] = true;
    return red;
  }

  static double sum(double[] xs, long[] ls, DType t) {
    if (!t.isFloatingPoint()) {
      long s = 0;
      for (long v : ls) s += v;
      return s;
    }
    double s = 0;
    float f = 0;  // below float64 the library and PyTorch accumulate in float32: a partial sum can
    for (double v : xs) {  // overflow where the double one does not ([-3e38, -3e38, inf] is NaN there; seed 514)
      s += v;
      f += (float) v;
    }
    return t != DType.FLOAT64 && !Float.isFinite(f) ? f : s;
  }

  static double amax(double[] xs, long[] ls, DType t) {
    double m = Double.NEGATIVE_INFINITY;
    for (double v : xs) m = Double.isNaN(v) || Double.isNaN(m) ? Double.NaN : Math.max(m, v);
    return ls != null && xs.length > 0 ? java.util.Arrays.stream(ls).max().getAsLong() : m;
  }

  /** The sum over the count; a sum past float32's range is infinite, as the library's (and PyTorch's) float accumulator. */
  static double mean(double[] xs, long[] ls, DType t) {
    double s = sum(xs, null, DType.FLOAT64);
    if (t != DType.FLOAT64 && Double.isInfinite((float) s)) return (float) s;
    return s / xs.length;
  }

  static double var(double[] xs, long[] ls, DType t) {
    return var(xs, 1, t);
  }

  /**
   * The sum of squared deviations from the mean over max(0, n - correction): PyTorch's divisor,
   * infinite or NaN at 0. All in double, as PyTorch's CPU Welford along a dim accumulates (its
   * all-dims path takes a float32 mean, so gives inf for [3e38, 3e38] where this gives 0); the
   * caller rounds the result (for std, its square root) to the dtype.
   */
  static double var(double[] xs, long correction, DType t) {
    if (xs.length == 0) return Double.NaN;  // PyTorch's trivial reduction, whatever the correction
    // Values past 1e150 are scaled by a power of two first (exact), so neither their sum nor the
    // correction's square overflows where PyTorch's Welford does not: its mean stays finite and only
    // the sum of squared deviations may overflow, to inf (seed 9 gave NaN here: inf - inf)
    double big = 0;
    for (double v : xs) if (Double.isFinite(v)) big = Math.max(big, Math.abs(v));
    int shift = big > 1e150 ? Math.getExponent(big) : 0;
    double[] ys = xs;
    if (shift != 0) {
      ys = new double[xs.length];
      for (int i = 0; i < xs.length; i++) ys[i] = Math.scalb(xs[i], -shift);
    }
    // the corrected two-pass sum (Chan, Golub and LeVeque): the mean's own rounding cancels, so
    // equal values give 0 (8 × -7.5e38 gave 2.6e46: their mean is not exactly one of them)
    double m = sum(ys, null, DType.FLOAT64) / ys.length, s = 0, c = 0;
    for (double v : ys) {
      s += (v - m) * (v - m);
      c += v - m;
    }
    double squares = s - c * c / ys.length;
    squares = Math.scalb(squares < 0 ? 0 : squares, 2 * shift);  // inf where the squares' sum overflows, as Welford's
    return squares / Math.max(0, xs.length - correction);
  }

  static Reducer std(long correction) {
    return (xs, ls, t) -> Math.sqrt(var(xs, correction, t));
  }

  static double amin(double[] xs, long[] ls, DType t) {
    double m = Double.POSITIVE_INFINITY;
    for (double v : xs) m = Double.isNaN(v) || Double.isNaN(m) ? Double.NaN : Math.min(m, v);
    return ls != null && xs.length > 0 ? java.util.Arrays.stream(ls).min().getAsLong() : m;
  }

  /**
   * The product; an integral one wraps as int64 does (a result past 2^52 is not compared); below
   * float64 each partial product is float32, PyTorch's math type, so one past its range is infinite.
   */
  static double prod(double[] xs, long[] ls, DType t) {
    if (ls != null && !t.isFloatingPoint()) {
      long p = 1;
      for (long v : ls) p *= v;
      return p;
    }
    double p = 1;
    for (double v : xs) p = t == DType.FLOAT64 ? p * v : (float) (p * v);
    return p;
  }

  /**
   * The vector p-norm: p = 0 counts the nonzero elements, p = inf is the largest magnitude. Below
   * float64 the powers and their sum are float32 (PyTorch's accumulator), so |x|^p past its range is infinite.
   */
  static Reducer norm(double p) {
    return (xs, ls, t) -> {
      double s = 0;
      for (double v : xs) {
        double a = Math.abs(v);
        if (p == 0) s += a != 0 ? 1 : 0;  // NaN is nonzero
        else if (Double.isNaN(a) || Double.isNaN(s)) s = Double.NaN;
        else if (Double.isInfinite(p)) s = Math.max(s, a);
        else s = t == DType.FLOAT64 ? s + Math.pow(a, p) : (float) (s + (float) Math.pow(a, p));
      }
      return p == 0 || Double.isInfinite(p) || p == 1 ? s : Math.pow(s, 1 / p);
    };
  }

  static double any(double[] xs, long[] ls, DType t) {
    for (double v : xs) if (v != 0) return 1;  // NaN is true
    return 0;
  }

  static double all(double[] xs, long[] ls, DType t) {
    for (double v : xs) if (v == 0) return 0;
    return 1;
  }

  static double logsumexp(double[] xs, long[] ls, DType t) {
    double m = amax(xs, null, t);
    if (Double.isInfinite(m) || Double.isNaN(m)) return m == Double.NEGATIVE_INFINITY || Double.isNaN(m) ? m : m;
    double s = 0;
    for (double v : xs) s += Math.exp(v - m);
    return m + Math.log(s);
  }

  /** The first position of the maximum (NaN counts as the maximum), as PyTorch's argmax. */
  static double argmax(double[] xs, long[] ls, DType t) {
    int best = 0;
    for (int k = 1; k < xs.length; k++) {
      if (Double.isNaN(xs[best])) break;
      if (Double.isNaN(xs[k]) || (ls != null ? ls[k] > ls[best] : xs[k] > xs[best])) best = k;
    }
    return best;
  }

  /** The first position of the minimum (NaN counts as the minimum), as PyTorch's argmin. */
  static double argmin(double[] xs, long[] ls, DType t) {
    int best = 0;
    for (int k = 1; k < xs.length; k++) {
      if (Double.isNaN(xs[best])) break;
      if (Double.isNaN(xs[k]) || (ls != null ? ls[k] < ls[best] : xs[k] < xs[best])) best = k;
    }
    return best;
  }

  /** An op along one dim (softmax, cumsum): f maps each line of values along dim to the result's line. */
  static Fuzz.Check along(Pool.Entry x, int dim, java.util.function.UnaryOperator<double[]> f) {
    return alongIn(x, dim, (xs, dtype) -> f.apply(xs));
  }

  /** along, for a reference that depends on the result's dtype (a scan's accumulator type). */
  static Fuzz.Check alongIn(Pool.Entry x, int dim, java.util.function.BiFunction<double[], DType, double[]> f) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      Vals.expectShape(v.shape, r, "along a dim");
      long[] keep = v.shape.clone();
      if (keep.length > 0) keep[dim < 0 ? dim + keep.length : dim] = 1;
      long outer = 1;
      for (long k : keep) outer *= k;
      for (List<Integer> g : groups(v.shape, keep, (int) outer)) {
        double[] xs = new double[g.size()];
        double abs = 0;
        for (int k = 0; k < xs.length; k++) {
          xs[k] = v.d[g.get(k)];
          abs += Math.abs(xs[k]);
        }
        if (!Double.isFinite(abs) || (r.integral() && abs > 0x1p50)) continue;  // the reference's doubles are not exact there
        double[] es = f.apply(xs, r.dtype);
        for (int k = 0; k < xs.length; k++) {
          double e = Vals.round(es[k], r.dtype), a = r.d[g.get(k)];
          double tol = Vals.rtol(r.dtype) * Math.abs(e) + Vals.atol(r.dtype) + 3e-5 * abs;
          if (r.integral() && Math.abs(es[k]) >= 0x1p52) continue;  // a product past a double's integers
          if (r.integral() ? a != e : !Vals.close(a, e, tol)) throw Vals.mismatch("along dim " + dim, g.get(k), a, e);
        }
      }
    };
  }

  static double[] softmax(double[] xs) {
    double lse = logsumexp(xs, null, DType.FLOAT64);
    double[] r = new double[xs.length];
    for (int k = 0; k < xs.length; k++) r[k] = Math.exp(xs[k] - lse);
    return r;
  }

  static double[] logSoftmax(double[] xs) {
    double lse = logsumexp(xs, null, DType.FLOAT64);
    double[] r = new double[xs.length];
    for (int k = 0; k < xs.length; k++) r[k] = xs[k] - lse;
    return r;
  }

  // A scan's running value, in PyTorch's CPU accumulator type: float for float16 and bfloat16 (a
  // bfloat16 product past float's range is inf there, then -inf, though a later factor would bring
  // the double product back: seed 3414's cumprod), double otherwise. Each output is rounded to the
  // dtype by the caller; the accumulator is not.
  private static double accumulate(double acc, DType dtype) {
    return dtype == DType.FLOAT16 || dtype == DType.BFLOAT16 ? (float) acc : acc;
  }

  static double[] cumprod(double[] xs, DType dtype) {
    double[] r = new double[xs.length];
    double p = 1;
    for (int k = 0; k < xs.length; k++) r[k] = p = accumulate(p * xs[k], dtype);
    return r;
  }

  static double[] cumsum(double[] xs, DType dtype) {
    double[] r = new double[xs.length];
    double s = 0;
    for (int k = 0; k < xs.length; k++) r[k] = s = accumulate(s + xs[k], dtype);
    return r;
  }

  /** log Σ_{j≤k} exp(x_j), shifted by the running maximum. */
  static double[] logcumsumexp(double[] xs) {
    double[] r = new double[xs.length];
    double m = Double.NEGATIVE_INFINITY, s = 0;
    for (int k = 0; k < xs.length; k++) {
      if (xs[k] > m) {
        s = s * Math.exp(m - xs[k]) + 1;
        m = xs[k];
      } else {
        s += Math.exp(xs[k] - m);
      }
      r[k] = m + Math.log(s);
    }
    return r;
  }
}
