package org.jtensor.fuzz;

import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;

/**
 * References for the index ops that write or gather by position: scatter, scatterAdd, indexAdd_,
 * index put, maskedSelect, a bool-mask get, cat and stack. Plain loops over the inputs' values before the call.
 */
final class ScatterRefs {
  private ScatterRefs() {}

  /** Expected values of a tensor being written: exact integers (wrapping) or doubles with the magnitude added in. */
  private static final class Written {
    final double[] d;
    final long[] l;
    final double[] mag;
    final Vals v;

    Written(Vals v) {
      this.v = v;
      d = v.d.clone();
      l = v.l == null ? null : v.l.clone();
      mag = new double[d.length];
      for (int i = 0; i < d.length; i++) mag[i] = Math.abs(d[i]);
    }

    void set(int at, Vals src, int from) {
      d[at] = src.d[from];
      if (l != null) l[at] = src.integral() ? src.l[from] : Vals.toLong(src.d[from], v.dtype);
      mag[at] = Math.abs(d[at]);
    }

    /**
     * self[at] += alpha * src[from] as PyTorch's loop does it: in self's dtype, each product and sum
     * rounded to it (so an overflow to infinity shows), alpha converted to it (for bool: nonzero).
     */
    void add(int at, Vals src, int from, double alpha) {
      DType t = v.dtype;
      if (t.isFloatingPoint()) {
        double a = Vals.round(alpha, t);
        d[at] = Vals.round(d[at] + Vals.round(a * Vals.round(src.d[from], t), t), t);
      } else {
        d[at] += alpha * src.d[from];
      }
      if (l != null) l[at] += (t == DType.BOOL ? (alpha != 0 ? 1 : 0) : (long) alpha) * (src.integral() ? src.l[from] : (long) src.d[from]);
      mag[at] += Math.abs(alpha * src.d[from]);
    }

    void expect(Vals r, String what) {
      for (int i = 0; i < r.numel(); i++) {
        if (r.integral()) {
          Vals.expectExact(r, i, l[i], what);
        } else {
          double e = Vals.round(d[i], r.dtype);
          if (!Vals.close(r.d[i], e, Vals.rtol(r.dtype) * (Math.abs(e) + mag[i]) + Vals.atol(r.dtype))) throw Vals.mismatch(what, i, r.d[i], e);
        }
      }
    }
  }

  /**
   * scatter (add: scatterAdd) along d: self[p with p[d] = index[p]] = src[p] for every position p of
   * index; of two writes to one element the later in index's row-major order stays.
   */
  static Fuzz.Check scatter(Pool.Entry x, int d, Pool.Entry idx, Pool.Entry src, boolean add) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), ix = in.of(idx), s = in.of(src);
      Vals.expectShape(v.shape, r, "scatter");
      Written w = new Written(v);
      int dim = d < 0 ? d + Math.max(v.shape.length, 1) : d;
      for (int p = 0; p < ix.numel(); p++) {
        long[] at = Vals.unflat(p, ix.shape);
        int from = Vals.flat(at, s.shape);
        if (v.shape.length > 0) at[dim] = ix.l[p];
        if (add) w.add(Vals.flat(at, v.shape), s, from, 1);
        else w.set(Vals.flat(at, v.shape), s, from);
      }
      w.expect(r, add ? "scatterAdd" : "scatter");
    };
  }

  /** indexAdd_: self[..., index[j], ...] += alpha * source[..., j, ...] along d; alpha must convert to self's dtype. */
  static Fuzz.Check indexAdd(Pool.Entry x, int d, Pool.Entry idx, Pool.Entry src, double alpha) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), ix = in.of(idx), s = in.of(src);
      if (!Valid.converts(alpha, v.dtype)) throw new AssertionError("accepted alpha " + alpha + " for " + v.dtype + ": PyTorch refuses (overflow)");
      Written w = new Written(v);
      int dim = d < 0 ? d + Math.max(v.shape.length, 1) : d;
      for (int p = 0; p < s.numel(); p++) {
        long[] at = Vals.unflat(p, s.shape);
        if (v.shape.length > 0) at[dim] = ix.l[(int) at[dim]];  // a 0-dim self has one slot
        w.add(Vals.flat(at, v.shape), s, p, alpha);
      }
      w.expect(r, "indexAdd_");
    };
  }

  /** x[index] = value along dim 0 (index int64, negatives from the end), value a Pool.Entry broadcast or a Number. */
  static Fuzz.Check indexPut(Pool.Entry x, Pool.Entry idx, Object value) {
    return (result, in) -> {
      if (Valid.expanded(x)) throw new AssertionError("index put into an expanded tensor (a stride-0 dim): PyTorch refuses");
      Vals r = Vals.of(result), v = in.of(x), ix = in.of(idx);
      long[] rows = v.shape.clone();
      rows[0] = ix.numel();
      put(x, r, v, rows, k -> {
        long[] at = Vals.unflat(k, rows);
        long i = ix.l[(int) at[0]];
        at[0] = i < 0 ? i + v.shape[0] : i;
        return Vals.flat(at, v.shape);
      }, value, in, "index put");
    };
  }

  /**
   * x[basic index] = value (a copy_ into the view): the selected elements take value (broadcast),
   * and so does every element of x at the same storage position (an expanded x's); the rest keep theirs.
   */
  static Fuzz.Check basicPut(Pool.Entry x, BasicIndex index, Object value) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x);
      BasicIndex.Selection sel = index.select(v.shape);
      if (sel == null) throw new AssertionError("accepted an index PyTorch refuses");
      put(x, r, v, sel.shape(), k -> sel.source()[k], value, in, "basic index put");
    };
  }

  /**
   * Writes value into x's elements target(k) for k over shape, each write reaching every element at
   * the same storage position; two selected elements at one position leave the result open (not checked).
   */
  private static void put(Pool.Entry x, Vals r, Vals v, long[] shape, java.util.function.IntUnaryOperator target, Object value,
                          Before in, String what) {
    Vals.expectShape(v.shape, r, what);
    if (in.aliased(x.t())) return;  // the value over x's own storage: the order of the writes decides
    Written w = new Written(v);
    Vals src = value instanceof Pool.Entry e ? in.of(e) : null;
    long[] stride = x.t().stride();
    java.util.Map<Long, List<Integer>> at = new java.util.HashMap<>();
    for (int i = 0; i < v.numel(); i++) at.computeIfAbsent(position(Vals.unflat(i, v.shape), stride), p -> new java.util.ArrayList<>()).add(i);
    long n = 1;
    for (long s : shape) n *= s;
    java.util.Set<Long> written = new java.util.HashSet<>();
    for (int k = 0; k < n; k++) {
      long pos = position(Vals.unflat(target.applyAsInt(k), v.shape), stride);
      if (!written.add(pos) && at.get(pos).size() > 1) return;  // one memory location selected twice through an expanded dim
      for (int i : at.get(pos)) {
        if (src != null) {
          w.set(i, src, Vals.flat(Refs.squash(Vals.unflat(k, shape), src.shape), src.shape));
        } else {
          Number num = (Number) value;
          w.d[i] = num.doubleValue();
          if (w.l != null) w.l[i] = num instanceof Long ? num.longValue() : Vals.toLong(num.doubleValue(), v.dtype);
          w.mag[i] = 0;
        }
      }
    }
    w.expect(r, what);
  }

  private static long position(long[] idx, long[] stride) {
    long p = 0;
    for (int d = 0; d < idx.length; d++) p += idx[d] * stride[d];
    return p;
  }

  /** maskedSelect: x's elements where the mask is true, x and mask broadcast, in row-major order, 1-D. */
  static Fuzz.Check maskedSelect(Pool.Entry x, Pool.Entry mask) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), m = in.of(mask);
      long[] shape = Refs.broadcast(v.shape, m.shape);
      long n = 1;
      for (long s : shape) n *= s;
      int k = 0;
      int[] picked = new int[(int) n];
      for (int o = 0; o < n; o++) {
        long[] at = Vals.unflat(o, shape);
        if (m.l[Vals.flat(Refs.squash(at, m.shape), m.shape)] != 0) picked[k++] = Vals.flat(Refs.squash(at, v.shape), v.shape);
      }
      Vals.expectShape(new long[] {k}, r, "maskedSelect");
      expectPicked(r, v, Arrays.copyOf(picked, k), "maskedSelect");
    };
  }

  /** x[mask] with a bool mask over x's leading dims: the selected rows, in row-major order. */
  static Fuzz.Check maskGet(Pool.Entry x, Pool.Entry mask) {
    return (result, in) -> {
      Vals r = Vals.of(result), v = in.of(x), m = in.of(mask);
      long[] rest = Arrays.copyOfRange(v.shape, m.shape.length, v.shape.length);
      long inner = 1;
      for (long s : rest) inner *= s;
      int count = 0;
      for (long b : m.l) count += b != 0 ? 1 : 0;
      long[] shape = new long[rest.length + 1];
      shape[0] = count;
      System.arraycopy(rest, 0, shape, 1, rest.length);
      Vals.expectShape(shape, r, "mask get");
      int[] picked = new int[(int) (count * inner)];
      int k = 0;
      for (int p = 0; p < m.numel(); p++) {
        if (m.l[p] != 0) for (int j = 0; j < inner; j++) picked[k++] = (int) (p * inner + j);
      }
      expectPicked(r, v, picked, "mask get");
    };
  }

  /**
   * cat (stack: a new dim) of the tensors along d, in the result's (promoted) dtype. cat skips 1-D
   * empty tensors (PyTorch's legacy rule: a [0] joins anything), and wraps d by the first one kept.
   */
  static Fuzz.Check join(List<Pool.Entry> ts, int d, boolean stack) {
    return (result, in) -> {
      Vals r = Vals.of(result);
      Vals[] v = ts.stream().map(in::of).filter(t -> stack || !Arrays.equals(t.shape, new long[] {0})).toArray(Vals[]::new);
      if (v.length == 0) {
        Vals.expectShape(new long[] {0}, r, "cat of empty tensors");
        return;
      }
      long[] base = v[0].shape;
      int rank = base.length + (stack ? 1 : 0), dim = d < 0 ? d + rank : d;
      long[] shape = stack ? new long[rank] : base.clone();
      if (stack) {
        for (int i = 0, j = 0; i < rank; i++) shape[i] = i == dim ? v.length : base[j++];
      } else {
        shape[dim] = 0;
        for (Vals t : v) shape[dim] += t.shape[dim];
      }
      Vals.expectShape(shape, r, stack ? "stack" : "cat");
      for (int o = 0; o < r.numel(); o++) {
        long[] at = Vals.unflat(o, shape);
        int piece = 0;
        if (stack) {
          piece = (int) at[dim];
          at = ViewModels.remove(at, dim);
        } else {
          while (at[dim] >= v[piece].shape[dim]) at[dim] -= v[piece++].shape[dim];
        }
        DataRefs.expectCast(r, o, v[piece], Vals.flat(at, v[piece].shape), "join");
      }
    };
  }

  /** r holds v's elements at these flat positions, exactly. */
  private static void expectPicked(Vals r, Vals v, int[] picked, String what) {
    if (r.dtype != v.dtype) throw new AssertionError(what + " gave " + r.dtype + " from " + v.dtype);
    for (int o = 0; o < picked.length; o++) {
      boolean same = v.integral() ? r.l[o] == v.l[picked[o]] : Double.compare(r.d[o], v.d[picked[o]]) == 0;
      if (!same) throw Vals.mismatch(what, o, r.d[o], v.d[picked[o]]);
    }
  }
}
