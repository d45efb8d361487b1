package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import org.jtensor.fuzz.ReduceRefs.Reducer;

/** Reductions over random dims (valid or not) with keepdim, and the ops along one dim. */
final class ReductionFamily {
  private ReductionFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int r = a.rank(x);
    int d = a.dim(r);
    int[] one = {d};
    int[] ds = a.chance(2) ? one : a.dims(r);
    boolean kd = a.chance(2);
    // Valid by construction: a live input and distinct dims in range; the floating-only ops on a
    // floating input; the ops without an identity (max, argmax...) on non-empty groups.
    boolean any = Valid.open(x) && distinct(ds, r), anyOne = Valid.open(x) && Valid.dim(d, r);
    boolean fl = any && Valid.floating(x), flOne = anyOne && Valid.floating(x);
    boolean full = any && nonEmpty(x, ds), fullOne = anyOne && nonEmpty(x, one);
    switch (f.rnd.nextInt(26)) {
      case 0 -> f.op(Valid.open(x), "sum", new Object[] {x}, () -> t(x).sum(), all(x, ReduceRefs::sum, 1));
      case 1 -> f.op(any, "sum", new Object[] {x, ds, kd}, () -> t(x).sum(ds, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs::sum, 1));
      case 2 -> f.op(fl, "mean", new Object[] {x, ds, kd}, () -> t(x).mean(ds, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs::mean, 1));
      case 3 -> f.op(full, "amax", new Object[] {x, ds, kd}, () -> t(x).amax(ds, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs::amax, 0));
      case 4 -> f.op(fullOne, "amin", new Object[] {x, d, kd}, () -> t(x).amin(d, kd), ReduceRefs.reduce(x, one, kd, ReduceRefs::amin, 0));
      case 5 -> f.op(fullOne, "argmax", new Object[] {x, d, kd}, () -> t(x).argmax(d, kd), ReduceRefs.reduce(x, one, kd, ReduceRefs::argmax, 0));
      case 6 -> f.op(Valid.open(x) && x.t().numel() > 0, "argmax", new Object[] {x}, () -> t(x).argmax(), all(x, ReduceRefs::argmax, 0));
      case 7 -> f.op(fullOne, "argmin", new Object[] {x, d, kd}, () -> t(x).argmin(d, kd), ReduceRefs.reduce(x, one, kd, ReduceRefs::argmin, 0));
      case 8 -> f.op(fullOne, "max", new Object[] {x, d, kd}, () -> t(x).max(d, kd), ArgRefs.valuesAndIndices(x, d, kd, true));
      case 9 -> f.op(fullOne, "min", new Object[] {x, d, kd}, () -> t(x).min(d, kd), ArgRefs.valuesAndIndices(x, d, kd, false));
      case 10 -> f.op(any, "prod", new Object[] {x, ds, kd}, () -> t(x).prod(ds, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs::prod, 1));
      case 11 -> f.op(fl, "var", new Object[] {x, ds, 1L, kd}, () -> t(x).var(ds, 1, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs::var, 4));
      case 12 -> {
        long c = a.between(-1, 2);
        f.op(fl, "std", new Object[] {x, ds, c, kd}, () -> t(x).std(ds, c, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs.std(c), 4));
      }
      case 13 -> {
        double p = a.chance(3) ? Double.POSITIVE_INFINITY : a.between(0, 3);
        f.op(fl && (p != Double.POSITIVE_INFINITY || nonEmpty(x, ds)), "norm", new Object[] {x, p, ds, kd},
            () -> t(x).norm(p, ds, kd), ReduceRefs.reduce(x, ds, kd, ReduceRefs.norm(p), 4));
      }
      case 14 -> f.op(fl, "logsumexp", new Object[] {x, ds, kd}, () -> t(x).logsumexp(ds, kd),
          ReduceRefs.reduce(x, ds, kd, ReduceRefs::logsumexp, 1));
      case 15 -> f.op(flOne, "softmax", new Object[] {x, d}, () -> t(x).softmax(d), ReduceRefs.along(x, d, ReduceRefs::softmax));
      case 16 -> f.op(flOne, "logSoftmax", new Object[] {x, d}, () -> t(x).logSoftmax(d), ReduceRefs.along(x, d, ReduceRefs::logSoftmax));
      case 17 -> f.op(anyOne, "cumsum", new Object[] {x, d}, () -> t(x).cumsum(d), ReduceRefs.alongIn(x, d, ReduceRefs::cumsum));
      case 18 -> f.op(anyOne, "cumprod", new Object[] {x, d}, () -> t(x).cumprod(d), ReduceRefs.alongIn(x, d, ReduceRefs::cumprod));
      case 19 -> {
        boolean isAny = a.chance(2);
        f.op(any, isAny ? "any" : "all", new Object[] {x, ds, kd}, () -> isAny ? t(x).any(ds, kd) : t(x).all(ds, kd),
            ReduceRefs.reduce(x, ds, kd, isAny ? ReduceRefs::any : ReduceRefs::all, 0, true));
      }
      case 20 -> f.op(Valid.floating(x), "std", new Object[] {x}, () -> t(x).std(), all(x, ReduceRefs.std(1), 4));
      case 21 -> {
        long k = 1 + a.between(0, (int) Math.max(0, size(x, d) - 1));  // in range when dim d has elements
        f.op(fullOne && !Valid.isBool(x), "kthvalue", new Object[] {x, k, d, kd}, () -> t(x).kthvalue(k, d, kd),
            SelectRefs.kthvalue(x, k, d, kd));
      }
      case 22 -> f.op(fullOne, "mode", new Object[] {x, d, kd}, () -> t(x).mode(d, kd), SelectRefs.mode(x, d, kd));
      case 23 -> {
        boolean max = a.chance(2);
        f.op(anyOne, max ? "cummax" : "cummin", new Object[] {x, d}, () -> max ? t(x).cummax(d) : t(x).cummin(d), ArgRefs.cumExtreme(x, d, max));
      }
      case 24 -> f.op(flOne, "logcumsumexp", new Object[] {x, d}, () -> t(x).logcumsumexp(d), ReduceRefs.along(x, d, ReduceRefs::logcumsumexp));
      default -> f.op(Valid.open(x), "nonzero", new Object[] {x}, () -> t(x).nonzero(), ArgRefs.nonzero(x));
    }
  }

  /** A reduction over every element to a 0-dim result. */
  private static Fuzz.Check all(Pool.Entry x, Reducer f, double tolScale) {
    return ReduceRefs.reduce(x, null, false, f, tolScale);
  }

  /**
   * Whether dims name distinct dims in range (a 0-dim tensor takes 0 and -1): the reference needs
   * that, and the op must refuse the rest (a check that then runs fails on the dims it cannot read).
   */
  private static boolean distinct(int[] ds, int r) {
    boolean[] seen = new boolean[Math.max(r, 1)];
    for (int d : ds) {
      if (!Valid.dim(d, r)) return false;
      int w = d < 0 ? d + Math.max(r, 1) : d;
      if (seen[w]) return false;
      seen[w] = true;
    }
    return true;
  }

  /** The size of dim d (1 for a 0-dim tensor; 0 for a dim out of range, where the op must refuse). */
  private static long size(Pool.Entry x, int d) {
    long[] s = x.t().isClosed() ? new long[0] : x.t().shape();
    if (s.length == 0) return 1;
    return d >= -s.length && d < s.length ? s[d < 0 ? d + s.length : d] : 0;
  }

  /** Every reduced dim (all of them for an empty list) has elements: max and argmax have no identity. */
  private static boolean nonEmpty(Pool.Entry x, int[] ds) {
    long[] s = x.t().shape();
    if (ds.length == 0) return x.t().numel() > 0;
    for (int d : ds) if (s.length > 0 && s[d < 0 ? d + s.length : d] == 0) return false;
    return true;
  }
}
