package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

/** Reductions over random dims (valid or not) with keepdim, and the ops along one dim. */
final class ReductionFamily {
  private ReductionFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int r = a.rank(x);
    int d = a.dim(r);
    int[] ds = a.chance(2) ? new int[] {d} : a.dims(r);
    boolean kd = a.chance(2);
    boolean distinct = distinct(ds, r);
    switch (f.rnd.nextInt(22)) {
      case 0 -> f.op("sum", new Object[] {x}, () -> t(x).sum(), ReduceRefs.reduce(x, null, false, ReduceRefs::sum, 1));
      case 1 -> f.op("sum", new Object[] {x, ds, kd}, () -> t(x).sum(ds, kd),
          distinct ? ReduceRefs.reduce(x, ds, kd, ReduceRefs::sum, 1) : null);
      case 2 -> f.op("mean", new Object[] {x, ds, kd}, () -> t(x).mean(ds, kd),
          distinct ? ReduceRefs.reduce(x, ds, kd, ReduceRefs::mean, 1) : null);
      case 3 -> f.op("amax", new Object[] {x, ds, kd}, () -> t(x).amax(ds, kd),
          distinct ? ReduceRefs.reduce(x, ds, kd, ReduceRefs::amax, 0) : null);
      case 4 -> f.op("amin", new Object[] {x, d, kd}, () -> t(x).amin(d, kd), null);
      case 5 -> f.op("argmax", new Object[] {x, d, kd}, () -> t(x).argmax(d, kd),
          ReduceRefs.reduce(x, new int[] {d}, kd, ReduceRefs::argmax, 0));
      case 6 -> f.op("argmax", new Object[] {x}, () -> t(x).argmax(), ReduceRefs.reduce(x, null, false, ReduceRefs::argmax, 0));
      case 7 -> f.op("argmin", new Object[] {x, d, kd}, () -> t(x).argmin(d, kd), null);
      case 8 -> f.op("max", new Object[] {x, d, kd}, () -> t(x).max(d, kd), null);
      case 9 -> f.op("min", new Object[] {x, d, kd}, () -> t(x).min(d, kd), null);
      case 10 -> f.op("prod", new Object[] {x, ds, kd}, () -> t(x).prod(ds, kd), null);
      case 11 -> f.op("var", new Object[] {x, ds, 1L, kd}, () -> t(x).var(ds, 1, kd),
          distinct ? ReduceRefs.reduce(x, ds, kd, ReduceRefs::var, 4) : null);
      case 12 -> {
        long c = a.between(-1, 2);
        f.op("std", new Object[] {x, ds, c, kd}, () -> t(x).std(ds, c, kd), null);
      }
      case 13 -> {
        double p = a.chance(3) ? Double.POSITIVE_INFINITY : a.between(0, 3);
        f.op("norm", new Object[] {x, p, ds, kd}, () -> t(x).norm(p, ds, kd), null);
      }
      case 14 -> f.op("logsumexp", new Object[] {x, ds, kd}, () -> t(x).logsumexp(ds, kd),
          distinct ? ReduceRefs.reduce(x, ds, kd, ReduceRefs::logsumexp, 1) : null);
      case 15 -> f.op("softmax", new Object[] {x, d}, () -> t(x).softmax(d), ReduceRefs.along(x, d, ReduceRefs::softmax));
      case 16 -> f.op("logSoftmax", new Object[] {x, d}, () -> t(x).logSoftmax(d), ReduceRefs.along(x, d, ReduceRefs::logSoftmax));
      case 17 -> f.op("cumsum", new Object[] {x, d}, () -> t(x).cumsum(d), ReduceRefs.along(x, d, ReduceRefs::cumsum));
      case 18 -> f.op("cumprod", new Object[] {x, d}, () -> t(x).cumprod(d), null);
      case 19 -> f.op(a.chance(2) ? "any" : "all", new Object[] {x, ds, kd}, () -> a.chance(2) ? t(x).any(ds, kd) : t(x).all(ds, kd), null);
      case 20 -> f.op("std", new Object[] {x}, () -> t(x).std(), null);
      default -> f.op("nonzero", new Object[] {x}, () -> t(x).nonzero(), null);
    }
  }

  /** Whether dims name distinct, in-range dims (the reference needs that; the op must refuse the rest). */
  private static boolean distinct(int[] ds, int r) {
    boolean[] seen = new boolean[Math.max(r, 1)];
    for (int d : ds) {
      if (d < -Math.max(r, 1) || d >= Math.max(r, 1)) return false;
      int w = d < 0 ? d + Math.max(r, 1) : d;
      if (seen[w]) return false;
      seen[w] = true;
    }
    return r > 0 || ds.length == 0;
  }
}
