package org.jtensor.fuzz;

import java.util.Arrays;
import org.jtensor.DType;

/**
 * Plain triple loops in double for matmul (every rank), addmm, linear and outer: integers exact
 * with wrap-around, floats within the dtype's tolerance of the sum of the products' magnitudes.
 */
final class MatmulRefs {
  private MatmulRefs() {}

  /** matmul's meaning: 1-D operands gain a dim that the result drops, batch dims broadcast. */
  static Fuzz.Check matmul(Pool.Entry x, Pool.Entry y) {
    return (result, in) -> {
      Vals va = in.of(x), vb = in.of(y), r = Vals.of(result);
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
        Dot dot = new Dot();
        for (long j = 0; j < k; j++) {
          ia[sa.length - 2] = idx[batch.length];
          ia[sa.length - 1] = j;
          ib[sb.length - 2] = j;
          ib[sb.length - 1] = idx[batch.length + 1];
          dot.add(va, Vals.flat(ia, sa), vb, Vals.flat(ib, sb), r.dtype);
        }
        dot.expect(r, o, 1, 0, 0, "matmul");
      }
    };
  }

  /** beta * c + alpha * (x @ y), c broadcast to [m, n]; beta = 0 ignores c (its NaN included), as PyTorch. */
  static Fuzz.Check addmm(Pool.Entry c, Pool.Entry x, Pool.Entry y, double beta, double alpha) {
    return (result, in) -> gemm(in.of(x), in.of(y), false, in.of(c), beta, alpha, Vals.of(result), "addmm");
  }

  /** x @ w^T + bias (bias [n] or null). */
  static Fuzz.Check linear(Pool.Entry x, Pool.Entry w, Pool.Entry bias) {
    return (result, in) -> gemm(in.of(x), in.of(w), true, bias == null ? null : in.of(bias), 1, 1, Vals.of(result), "linear");
  }

  /** r = alpha * (a @ b) + beta * c for a [m, k] and b [k, n] (bT: b given as [n, k]), c broadcast to [m, n] or null. */
  private static void gemm(Vals va, Vals vb, boolean bT, Vals vc, double beta, double alpha, Vals r, String what) {
    long k = va.shape[1], n = bT ? vb.shape[0] : vb.shape[1];
    long[] shape = {va.shape[0], n};
    Vals.expectShape(shape, r, what);
    for (int o = 0; o < r.numel(); o++) {
      long[] idx = Vals.unflat(o, shape);
      Dot dot = new Dot();
      for (int j = 0; j < k; j++) dot.add(va, (int) (idx[0] * k + j), vb, (int) (bT ? idx[1] * k + j : j * n + idx[1]), r.dtype);
      double c = 0;
      if (vc != null && beta != 0) {
        int pc = Vals.flat(Refs.squash(idx, vc.shape), vc.shape);
        c = vc.integral() ? vc.l[pc] : Vals.round(vc.d[pc], r.dtype);
      }
      dot.expect(r, o, alpha, vc == null ? 0 : beta, c, what);
    }
  }

  /** outer(x, y)[i][j] = x[i] * y[j], in the promoted dtype (it is a broadcast mul). */
  static Fuzz.Check outer(Pool.Entry x, Pool.Entry y) {
    return (result, in) -> {
      Vals va = in.of(x), vb = in.of(y), r = Vals.of(result);
      long[] shape = {va.numel(), vb.numel()};
      Vals.expectShape(shape, r, "outer");
      for (int o = 0; o < r.numel(); o++) {
        Dot dot = new Dot();
        dot.add(va, (int) (o / shape[1]), vb, (int) (o % shape[1]), r.dtype);
        dot.expect(r, o, 1, 0, 0, "outer");
      }
    };
  }

  /** A sum of products, exact (wrapping) for integers and in double with its magnitude for floats. */
  private static final class Dot {
    double sum, abs;
    long exact;
    boolean empty = true;  // no product at all (k = 0): PyTorch's addmm gives beta * c, whatever alpha is

    void add(Vals a, int pa, Vals b, int pb, DType t) {
      empty = false;
      double p = Vals.round(a.d[pa], t) * Vals.round(b.d[pb], t);
      sum += p;
      abs += Math.abs(p);
      if (a.integral() && b.integral()) exact += a.l[pa] * b.l[pb];
    }

    /**
     * r[o] against alpha * sum + beta * c: exactly for an integral r (alpha and beta converted to its
     * dtype, which PyTorch refuses when they overflow it), else within r's dtype's tolerance.
     */
    void expect(Vals r, int o, double alpha, double beta, double c, String what) {
      if (r.integral()) {
        if (!Valid.converts(alpha, r.dtype) || !Valid.converts(beta, r.dtype)) {
          throw new AssertionError(what + " accepted alpha " + alpha + ", beta " + beta + " for " + r.dtype + ": PyTorch refuses (overflow)");
        }
        long a = r.dtype == DType.BOOL ? (alpha != 0 ? 1 : 0) : (long) alpha, b = r.dtype == DType.BOOL ? (beta != 0 ? 1 : 0) : (long) beta;
        Vals.expectExact(r, o, (empty ? 0 : a * exact) + b * (long) c, what);
        return;
      }
      DType opmath = r.dtype == DType.FLOAT64 ? r.dtype : DType.FLOAT32;
      if (!FactoryRefs.fits(alpha, opmath) || !FactoryRefs.fits(beta, opmath)) {
        throw new AssertionError(what + " accepted alpha " + alpha + ", beta " + beta + " for " + r.dtype + ": PyTorch refuses (overflow)");
      }
      // Terms past the math type's range overflow inside the kernel, to an infinity or NaN that
      // depends on the order of the adds (PyTorch's BLAS as much as jtensor's): any of those is taken.
      double reach = (empty ? 0 : Math.abs(alpha) * abs) + (beta == 0 ? 0 : Math.abs(beta * c));
      double largest = opmath == DType.FLOAT64 ? Double.MAX_VALUE : Float.MAX_VALUE;
      if (!(reach <= largest) && !Double.isFinite(r.d[o])) return;
      double e = Vals.round((empty ? 0 : alpha * sum) + (beta == 0 ? 0 : beta * c), r.dtype);
      double tol = Vals.rtol(r.dtype) * (Math.abs(e) + (empty ? 0 : Math.abs(alpha) * abs) + Math.abs(beta * c)) + Vals.atol(r.dtype);
      if (!Vals.close(r.d[o], e, tol)) throw Vals.mismatch(what, o, r.d[o], e);
    }
  }

  private static long[] drop(long[] s, int i) {
    long[] r = new long[s.length - 1];
    for (int j = 0, k = 0; j < s.length; j++) if (j != i) r[k++] = s[j];
    return r;
  }
}
