package org.jtensor.fuzz;

import static org.jtensor.fuzz.Fuzz.t;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;

/** The matmul family (matmul in every rank, mm, bmm, dot, outer, addmm, linear) with a plain-loop reference. */
final class MatmulFamily {
  private MatmulFamily() {}

  static void step(Fuzz f) {
    Args a = f.args;
    int m = a.between(0, 3), k = a.between(0, 4), n = a.between(1, 3), b = a.between(1, 2);
    DType dt = a.chance(4) ? a.dtype() : DType.FLOAT32;
    DType dt2 = a.chance(8) ? a.dtype() : dt;
    switch (f.rnd.nextInt(8)) {
      case 0 -> pair(f, "matmul", shapeFor(f, new long[] {b, m, k}), shapeFor(f, new long[] {k, n}), dt, dt2);
      case 1 -> pair(f, "mm", new long[] {m, k}, new long[] {a.chance(10) ? k + 1 : k, n}, dt, dt2);
      case 2 -> pair(f, "bmm", new long[] {b, m, k}, new long[] {b, k, n}, dt, dt2);
      case 3 -> pair(f, "dot", new long[] {k}, new long[] {a.chance(10) ? k + 1 : k}, dt, dt2);
      case 4 -> pair(f, "outer", new long[] {m}, new long[] {n}, dt, dt2);
      case 5 -> {
        Pool.Entry c = f.pool.add(a.fresh(a.chance(2) ? new long[] {m, n} : new long[] {n}, dt));
        Pool.Entry x = f.pool.add(a.fresh(new long[] {m, k}, dt)), y = f.pool.add(a.fresh(new long[] {k, n}, dt2));
        double beta = a.scalar(), alpha = a.scalar();
        f.op("addmm", new Object[] {c, x, y, beta, alpha}, () -> t(c).addmm(t(x), t(y), beta, alpha), null);
      }
      case 6 -> {
        Pool.Entry x = f.pool.add(a.fresh(new long[] {b, k}, dt)), w = f.pool.add(a.fresh(new long[] {n, k}, dt2));
        Pool.Entry bias = a.chance(3) ? null : f.pool.add(a.fresh(new long[] {n}, dt));
        f.op("linear", new Object[] {x, w, bias}, () -> Tensor.linear(t(x), t(w), t(bias)), null);
      }
      default -> {  // pooled operands: mostly mismatched shapes or dtypes
        Pool.Entry x = a.input(), y = a.arg();
        f.op("matmul", new Object[] {x, y}, () -> t(x).matmul(t(y)), null);
      }
    }
  }

  /** The shape, with leading dims dropped at random (matmul's 1-D and 2-D forms). */
  private static long[] shapeFor(Fuzz f, long[] full) {
    int drop = f.rnd.nextInt(full.length);
    if (full.length - drop == 1 && full.length == 2) return new long[] {full[0]};  // a vector of k
    return Arrays.copyOfRange(full, drop, full.length);
  }

  private static void pair(Fuzz f, String name, long[] sa, long[] sb, DType ta, DType tb) {
    Pool.Entry x = f.pool.add(f.args.fresh(sa, ta)), y = f.pool.add(f.args.fresh(sb, tb));
    if (x == null || y == null) return;
    Fuzz.Check check = ta == tb && !name.equals("outer") ? result -> verify(x, y, result) : null;
    f.op(name, new Object[] {x, y}, () -> switch (name) {
      case "mm" -> t(x).mm(t(y));
      case "bmm" -> t(x).bmm(t(y));
      case "dot" -> t(x).dot(t(y));
      case "outer" -> t(x).outer(t(y));
      default -> t(x).matmul(t(y));
    }, check);
  }

  /** matmul's meaning: 1-D operands gain a dim that the result drops, batch dims broadcast. */
  static void verify(Pool.Entry x, Pool.Entry y, Object result) {
    Vals va = new Vals(x.t()), vb = new Vals(y.t()), r = Vals.of(result);
    long[] sa = va.shape.length == 1 ? new long[] {1, va.shape[0]} : va.shape;
    long[] sb = vb.shape.length == 1 ? new long[] {vb.shape[0], 1} : vb.shape;
    long m = sa[sa.length - 2], k = sa[sa.length - 1], n = sb[sb.length - 1];
    long[] batch = Refs.broadcast(Arrays.copyOf(sa, sa.length - 2), Arrays.copyOf(sb, sb.length - 2));
    long[] full = Arrays.copyOf(batch, batch.length + 2);
    full[batch.length] = m;
    full[batch.length + 1] = n;
    long[] expectShape = full;
    if (va.shape.length == 1) expectShape = drop(expectShape, expectShape.length - 2);
    if (vb.shape.length == 1) expectShape = drop(expectShape, expectShape.length - 1);
    Vals.expectShape(expectShape, r, "matmul");
    long[] ia = new long[sa.length], ib = new long[sb.length];
    for (int o = 0; o < r.numel(); o++) {
      long[] idx = Vals.unflat(o, full);
      long[] bi = Arrays.copyOf(idx, batch.length);
      System.arraycopy(Refs.squash(bi, Arrays.copyOf(sa, sa.length - 2)), 0, ia, 0, sa.length - 2);
      System.arraycopy(Refs.squash(bi, Arrays.copyOf(sb, sb.length - 2)), 0, ib, 0, sb.length - 2);
      double s = 0, abs = 0;
      long ls = 0;
      for (long j = 0; j < k; j++) {
        ia[sa.length - 2] = idx[batch.length];
        ia[sa.length - 1] = j;
        ib[sb.length - 2] = j;
        ib[sb.length - 1] = idx[batch.length + 1];
        int pa = Vals.flat(ia, sa), pb = Vals.flat(ib, sb);
        s += va.d[pa] * vb.d[pb];
        abs += Math.abs(va.d[pa] * vb.d[pb]);
        if (r.integral()) ls += va.l[pa] * vb.l[pb];
      }
      if (r.integral()) {
        long e = Vals.wrap(ls, r.dtype);
        if (r.l[o] != e) throw Vals.mismatch("matmul", o, r.l[o], e);
      } else {
        double e = Vals.round(s, r.dtype);
        if (!Vals.close(r.d[o], e, Vals.rtol(r.dtype) * Math.abs(e) + Vals.atol(r.dtype) + 3e-5 * abs)) {
          throw Vals.mismatch("matmul", o, r.d[o], e);
        }
      }
    }
  }

  private static long[] drop(long[] s, int i) {
    long[] r = new long[s.length - 1];
    for (int j = 0, k = 0; j < s.length; j++) if (j != i) r[k++] = s[j];
    return r;
  }
}
