package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.List;
import org.jtensor.Index;
import org.jtensor.Tensor;

/** Indexing: indexSelect, gather, scatter(Add), indexAdd_, masks, advanced get/set, cat and stack. */
final class IndexFamily {
  private IndexFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    Pool.Entry x = a.input();
    int r = a.rank(x);
    int d = a.dim(r);
    long size = a.size(x, d);
    long[] shape = x == null || x.t().isClosed() ? new long[] {2} : x.t().shape();
    switch (f.rnd.nextInt(14)) {
      case 0 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 4)}, size));
        f.op("indexSelect", new Object[] {x, d, idx}, () -> t(x).indexSelect(d, t(idx)), IndexRefs.indexSelect(x, d, idx, false));
      }
      case 1 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(like(f, shape), size));
        f.op("gather", new Object[] {x, d, idx}, () -> t(x).gather(d, t(idx)), IndexRefs.gather(x, d, idx));
      }
      case 2, 3 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(like(f, shape), size));
        Pool.Entry src = f.pool.add(a.fresh(like(f, shape), a.chance(4) ? a.dtype() : x == null || x.t().isClosed() ? a.dtype() : x.t().dtype()));
        switch (f.rnd.nextInt(4)) {
          case 0 -> f.op("scatter", new Object[] {x, d, idx, src}, () -> t(x).scatter(d, t(idx), t(src)), null);
          case 1 -> f.op("scatter_", new Object[] {x, d, idx, src}, () -> t(x).scatter_(d, t(idx), t(src)), null);
          case 2 -> f.op("scatterAdd", new Object[] {x, d, idx, src}, () -> t(x).scatterAdd(d, t(idx), t(src)), null);
          default -> f.op("scatterAdd_", new Object[] {x, d, idx, src}, () -> t(x).scatterAdd_(d, t(idx), t(src)), null);
        }
      }
      case 4 -> {
        long n = a.between(0, 3);
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {n}, size));
        long[] ss = shape.clone();
        if (ss.length > 0) ss[((d % ss.length) + ss.length) % ss.length] = a.chance(10) ? n + 1 : n;
        Pool.Entry src = f.pool.add(a.fresh(ss, x == null || x.t().isClosed() ? a.dtype() : x.t().dtype()));
        double alpha = a.chance(2) ? 1 : a.scalar();
        f.op("indexAdd_", new Object[] {x, d, idx, src, alpha}, () -> t(x).indexAdd_(d, t(idx), t(src), alpha), null);
      }
      case 5, 6 -> {
        Pool.Entry mask = mask(f, shape);
        double v = a.scalar();
        boolean inPlace = a.chance(3);
        f.op(inPlace ? "maskedFill_" : "maskedFill", new Object[] {x, mask, v},
            () -> inPlace ? t(x).maskedFill_(t(mask), v) : t(x).maskedFill(t(mask), v), inPlace ? null : IndexRefs.maskedFill(x, mask, v));
      }
      case 7 -> {
        Pool.Entry mask = mask(f, shape);
        f.op("maskedSelect", new Object[] {x, mask}, () -> t(x).maskedSelect(t(mask)), null);
      }
      case 8, 9 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 3)}, shape.length == 0 ? 0 : shape[0]));
        if (idx == null) return;
        Index[] ix = a.chance(3) ? new Index[] {Index.all(), Index.of(t(idx))} : new Index[] {Index.of(t(idx))};
        f.op("get", new Object[] {x, ix}, () -> t(x).get(ix), ix.length == 1 ? IndexRefs.indexSelect(x, 0, idx, true) : null);
      }
      case 10 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 3)}, shape.length == 0 ? 0 : shape[0]));
        if (idx == null) return;
        Index[] ix = a.chance(2) ? new Index[] {Index.of(t(idx))} : ViewFamily.basicIndex(f, r);
        if (a.chance(2)) {
          Pool.Entry v = a.arg();
          f.op("set", new Object[] {x, ix, v}, () -> t(x).set(ix, t(v)), null);
        } else {
          Number v = a.chance(2) ? (Number) a.scalar() : (Number) a.longScalar();
          f.op("set", new Object[] {x, ix, v}, () -> t(x).set(ix, v), null);
        }
      }
      case 11 -> {
        Pool.Entry mask = mask(f, shape);
        if (mask == null) return;
        Index[] ix = {Index.of(t(mask))};
        f.op("get", new Object[] {x, ix}, () -> t(x).get(ix), null);
      }
      default -> {
        Pool.Entry y = a.chance(2) ? x : BinaryFamily.other(f, x), z = a.arg();
        boolean stack = a.chance(2);
        f.op(stack ? "stack" : "cat", new Object[] {List.of(String.valueOf(x), String.valueOf(y), String.valueOf(z)), d}, () -> {
          List<Tensor> ts = java.util.Arrays.asList(t(x), t(y), t(z));
          return stack ? Tensor.stack(ts, d) : Tensor.cat(ts, d);
        }, null);
      }
    }
  }

  /** x's shape with each size maybe shrunk (gather and scatter need index no larger than self). */
  private static long[] like(Fuzz f, long[] shape) {
    long[] s = shape.clone();
    for (int i = 0; i < s.length; i++) s[i] = f.args.chance(3) ? f.args.between(0, (int) Math.max(s[i], 0)) : s[i];
    if (f.args.chance(20) && s.length > 0) s[0] += 2;
    return s;
  }

  /** A bool mask of x's shape (or one that broadcasts, or a wrong one). */
  private static Pool.Entry mask(Fuzz f, long[] shape) {
    long[] s = f.args.chance(10) ? f.args.shape() : shape;
    try (Tensor v = f.args.fresh(s, org.jtensor.DType.FLOAT32)) {
      return f.pool.add(f.args.chance(15) ? v.clone() : v.gt(0.0));
    } catch (IllegalArgumentException bad) {  // a negative size drawn for the mask itself
      return null;
    }
  }
}
