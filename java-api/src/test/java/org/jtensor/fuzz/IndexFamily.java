package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;
import static org.jtensor.fuzz.Valid.open;

import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
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
    long bound = r == 0 ? 1 : size;  // a 0-dim tensor's one element: index 0
    switch (f.rnd.nextInt(14)) {
      case 0 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 4)}, size));
        f.op(dimOk(x, d, r) && Valid.indices(idx, 0, bound) && (r > 0 || idx.t().numel() == 1), "indexSelect", new Object[] {x, d, idx}, () -> t(x).indexSelect(d, t(idx)),
            IndexRefs.indexSelect(x, d, idx, false));
      }
      case 1 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(like(f, shape), size));
        f.op(dimOk(x, d, r) && Valid.indices(idx, 0, bound) && fitsAlong(idx, x, d, x), "gather", new Object[] {x, d, idx},
            () -> t(x).gather(d, t(idx)), IndexRefs.gather(x, d, idx));
      }
      case 2, 3 -> {
        Pool.Entry idx = f.pool.add(a.indexTensor(like(f, shape), size));
        Pool.Entry src = f.pool.add(a.fresh(like(f, shape), a.chance(4) || !open(x) ? a.dtype() : x.t().dtype()));
        boolean ok = dimOk(x, d, r) && Valid.indices(idx, 0, bound) && Valid.sameDtype(x, src) && fitsAlong(idx, x, d, src);
        int form = f.rnd.nextInt(4);
        boolean add = form >= 2, inPlace = form % 2 == 1;
        String name = (add ? "scatterAdd" : "scatter") + (inPlace ? "_" : "");
        Fuzz.Check ref = ScatterRefs.scatter(x, d, idx, src, add);
        f.op(ok && (!inPlace || Valid.distinctElements(x)), name, new Object[] {x, d, idx, src}, () -> switch (form) {
          case 0 -> t(x).scatter(d, t(idx), t(src));
          case 1 -> t(x).scatter_(d, t(idx), t(src));
          case 2 -> t(x).scatterAdd(d, t(idx), t(src));
          default -> t(x).scatterAdd_(d, t(idx), t(src));
        }, inPlace ? Refs.writes(x, ref) : ref);
      }
      case 4 -> {
        long n = a.between(0, 3);
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {n}, size));
        long[] ss = shape.clone();
        boolean sizeOff = a.chance(10);
        if (ss.length > 0) ss[((d % ss.length) + ss.length) % ss.length] = sizeOff ? n + 1 : n;
        Pool.Entry src = f.pool.add(a.fresh(ss, x == null || x.t().isClosed() ? a.dtype() : x.t().dtype()));
        double alpha = a.chance(2) ? 1 : a.scalar();
        boolean ok = dimOk(x, d, r) && r > 0 && !sizeOff && Valid.indices(idx, 0, size) && Valid.sameDtype(x, src) && Valid.distinctElements(x)
            && Valid.converts(alpha, x.t().dtype()) && (Valid.floating(x) || (x.t().dtype() == DType.BOOL ? alpha == 1 : alpha == Math.rint(alpha)));
        f.op(ok, "indexAdd_", new Object[] {x, d, idx, src, alpha}, () -> t(x).indexAdd_(d, t(idx), t(src), alpha),
            Refs.writes(x, ScatterRefs.indexAdd(x, d, idx, src, alpha)));
      }
      case 5, 6 -> {
        Pool.Entry mask = mask(f, shape);
        double v = a.scalar();
        boolean inPlace = a.chance(3);
        boolean ok = Valid.isBool(mask) && fillable(x, v) && (inPlace ? Valid.broadcastsTo(mask, shape) && Valid.distinctElements(x)
            : Valid.broadcast(x, mask));
        f.op(ok, inPlace ? "maskedFill_" : "maskedFill", new Object[] {x, mask, v},
            () -> inPlace ? t(x).maskedFill_(t(mask), v) : t(x).maskedFill(t(mask), v),
            inPlace ? Refs.writes(x, IndexRefs.maskedFill(x, mask, v)) : IndexRefs.maskedFill(x, mask, v));
      }
      case 7 -> {
        Pool.Entry mask = mask(f, shape);
        f.op(Valid.isBool(mask) && Valid.broadcast(x, mask), "maskedSelect", new Object[] {x, mask}, () -> t(x).maskedSelect(t(mask)),
            ScatterRefs.maskedSelect(x, mask));
      }
      case 8, 9 -> {
        long rows = shape.length == 0 ? 0 : shape[0];
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 3)}, rows));
        if (idx == null) return;
        boolean second = a.chance(3);
        Index[] ix = second ? new Index[] {Index.all(), Index.of(t(idx))} : new Index[] {Index.of(t(idx))};
        long along = shape.length > (second ? 1 : 0) ? shape[second ? 1 : 0] : 0;
        f.op(open(x) && shape.length > (second ? 1 : 0) && Valid.indices(idx, -along, along), "get", new Object[] {x, ix, idx},
            () -> t(x).get(ix), IndexRefs.indexSelect(x, second ? 1 : 0, idx, true));
      }
      case 10 -> {
        long rows = shape.length == 0 ? 0 : shape[0];
        Pool.Entry idx = f.pool.add(a.indexTensor(new long[] {a.between(0, 3)}, rows));
        if (idx == null) return;
        boolean advanced = a.chance(2);
        BasicIndex basic = advanced ? null : ViewFamily.basicIndex(f, r);
        Index[] ix = advanced ? new Index[] {Index.of(t(idx))} : basic.index;
        Object v = a.chance(2) ? a.arg() : a.chance(2) ? (Object) a.scalar() : (Object) a.longScalar();
        f.op(setOk(x, idx, basic, v), "set", new Object[] {x, ix, v, idx}, () -> v instanceof Pool.Entry e ? t(x).set(ix, t(e)) : t(x).set(ix, (Number) v),
            advanced ? Refs.writes(x, ScatterRefs.indexPut(x, idx, v)) : Refs.writesShared(x, ScatterRefs.basicPut(x, basic, v)));
      }
      case 11 -> {
        Pool.Entry mask = mask(f, shape);
        if (mask == null) return;
        Index[] ix = {Index.of(t(mask))};
        boolean ok = open(x) && Valid.isBool(mask) && mask.t().dim() <= shape.length
            && Arrays.equals(mask.t().shape(), Arrays.copyOf(shape, mask.t().dim()));
        f.op(ok, "get", new Object[] {x, ix, mask}, () -> t(x).get(ix), ScatterRefs.maskGet(x, mask));
      }
      default -> {
        Pool.Entry y = a.chance(2) ? x : BinaryFamily.other(f, x), z = a.chance(2) ? x : a.arg();
        boolean stack = a.chance(2);
        List<Pool.Entry> ts = Arrays.asList(x, y, z);
        f.op(joinable(ts, d, stack), stack ? "stack" : "cat", new Object[] {ts, d}, () -> {
          List<Tensor> tensors = Arrays.asList(t(x), t(y), t(z));
          return stack ? Tensor.stack(tensors, d) : Tensor.cat(tensors, d);
        }, ScatterRefs.join(ts, d, stack));
      }
    }
  }

  /** x is open (a pool.add of the step's other operands may have evicted it) and d one of its dims. */
  private static boolean dimOk(Pool.Entry x, int d, int r) {
    return open(x) && Valid.dim(d, r);
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

  /**
   * gather's and scatter's shape rule: index has self's rank, and no dim larger than other's (src,
   * or self itself for gather), nor than self's away from d.
   */
  private static boolean fitsAlong(Pool.Entry idx, Pool.Entry x, int d, Pool.Entry other) {
    if (!open(idx) || !open(other)) return false;
    long[] si = idx.t().shape(), sx = x.t().shape(), so = other.t().shape();
    if (si.length != sx.length || so.length != sx.length) return false;
    int dim = sx.length == 0 ? 0 : d < 0 ? d + sx.length : d;
    for (int i = 0; i < si.length; i++) {
      if (si[i] > so[i] || (i != dim && si[i] > sx[i])) return false;
    }
    return true;
  }

  /** A value that x's dtype holds without overflow (for an integral dtype only 0 and 1: a cast truncates the rest). */
  private static boolean fillable(Pool.Entry x, double v) {
    return open(x) && (x.t().dtype().isFloatingPoint() ? FactoryRefs.fits(v, x.t().dtype()) : v == 0 || v == 1);
  }

  /** x[index] = v: a writable x, an index it takes, and a value of x's dtype that broadcasts to the selection. */
  private static boolean setOk(Pool.Entry x, Pool.Entry idx, BasicIndex basic, Object v) {
    if (!Valid.distinctElements(x)) return false;
    long[] shape = x.t().shape(), selected;
    if (basic == null) {
      if (shape.length == 0 || !Valid.indices(idx, -shape[0], shape[0])) return false;
      selected = shape.clone();
      selected[0] = idx.t().numel();
    } else {
      BasicIndex.Selection sel = basic.select(shape);
      if (sel == null) return false;
      selected = sel.shape();
    }
    if (v instanceof Pool.Entry e) return Valid.sameDtype(x, e) && Valid.broadcastsTo(e, selected) && Valid.apart(x, e);
    return v instanceof Double dv ? fillable(x, dv) : v instanceof Long lv && fillable(x, (double) lv);
  }

  /** cat: the same rank (at least 1), sizes equal away from d; stack: equal shapes, d in [-(rank+1), rank]. */
  private static boolean joinable(List<Pool.Entry> ts, int d, boolean stack) {
    for (Pool.Entry e : ts) if (!open(e)) return false;
    long[] s0 = ts.get(0).t().shape();
    int rank = s0.length + (stack ? 1 : 0);
    if (rank == 0 || d < -rank || d >= rank) return false;
    int dim = d < 0 ? d + rank : d;
    for (Pool.Entry e : ts) {
      long[] s = e.t().shape();
      if (s.length != s0.length) return false;
      for (int i = 0; i < s.length; i++) if (s[i] != s0[i] && (stack || i != dim)) return false;
    }
    return true;
  }
}
