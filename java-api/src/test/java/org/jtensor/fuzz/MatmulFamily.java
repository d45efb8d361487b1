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
    boolean kOff = a.chance(10);  // mm and dot: an inner size that does not match, now and then
    switch (f.rnd.nextInt(8)) {
      case 0 -> pair(f, "matmul", shapeFor(f, new long[] {b, m, k}), shapeFor(f, new long[] {k, n}), dt, dt2, true);
      case 1 -> pair(f, "mm", new long[] {m, k}, new long[] {kOff ? k + 1 : k, n}, dt, dt2, !kOff);
      case 2 -> pair(f, "bmm", new long[] {b, m, k}, new long[] {b, k, n}, dt, dt2, true);
      case 3 -> pair(f, "dot", new long[] {k}, new long[] {kOff ? k + 1 : k}, dt, dt2, !kOff);
      case 4 -> {
        Pool.Entry x = f.pool.add(a.fresh(new long[] {m}, dt)), y = f.pool.add(a.fresh(new long[] {n}, dt2));
        f.op(Valid.open(x) && Valid.open(y), "outer", new Object[] {x, y}, () -> t(x).outer(t(y)), MatmulRefs.outer(x, y));
      }
      case 5 -> {
        Pool.Entry c = f.pool.add(a.fresh(a.chance(2) ? new long[] {m, n} : new long[] {n}, dt));
        Pool.Entry x = f.pool.add(a.fresh(new long[] {m, k}, dt)), y = f.pool.add(a.fresh(new long[] {k, n}, dt2));
        double beta = a.scalar(), alpha = a.scalar();
        DType opmath = dt.isFloatingPoint() && dt != DType.FLOAT64 ? DType.FLOAT32 : dt;  // PyTorch converts alpha and beta to it
        boolean ok = Valid.sameDtype(c, x, y) && dt != DType.BOOL && (dt.isFloatingPoint() || (integral(beta) && integral(alpha)))
            && Valid.converts(beta, opmath) && Valid.converts(alpha, opmath);
        f.op(ok, "addmm", new Object[] {c, x, y, beta, alpha}, () -> t(c).addmm(t(x), t(y), beta, alpha),
            MatmulRefs.addmm(c, x, y, beta, alpha));
      }
      case 6 -> {
        Pool.Entry x = f.pool.add(a.fresh(new long[] {b, k}, dt)), w = f.pool.add(a.fresh(new long[] {n, k}, dt2));
        Pool.Entry bias = a.chance(3) ? null : f.pool.add(a.fresh(new long[] {n}, dt));
        boolean ok = Valid.sameDtype(x, w) && dt != DType.BOOL && (bias == null || Valid.sameDtype(x, bias));
        f.op(ok, "linear", new Object[] {x, w, bias}, () -> Tensor.linear(t(x), t(w), t(bias)), MatmulRefs.linear(x, w, bias));
      }
      default -> {  // pooled operands: mostly mismatched shapes or dtypes
        Pool.Entry x = a.input(), y = a.arg();
        f.op(Valid.sameDtype(x, y) && x.t().dtype() != DType.BOOL && multipliable(x.t().shape(), y.t().shape()), "matmul", new Object[] {x, y},
            () -> t(x).matmul(t(y)), MatmulRefs.matmul(x, y));
      }
    }
  }

  /** The shape, with leading dims dropped at random (matmul's 1-D and 2-D forms). */
  private static long[] shapeFor(Fuzz f, long[] full) {
    int drop = f.rnd.nextInt(full.length);
    if (full.length - drop == 1 && full.length == 2) return new long[] {full[0]};  // a vector of k
    return Arrays.copyOfRange(full, drop, full.length);
  }

  /**
   * Two fresh operands of these shapes; valid by construction when the shapes match (fits) and the
   * dtypes agree, but not for bool (PyTorch has no bool matmul; jtensor's is checked, not required).
   */
  private static void pair(Fuzz f, String name, long[] sa, long[] sb, DType ta, DType tb, boolean fits) {
    Pool.Entry x = f.pool.add(f.args.fresh(sa, ta)), y = f.pool.add(f.args.fresh(sb, tb));
    if (x == null || y == null) return;
    f.op(fits && Valid.sameDtype(x, y) && ta != DType.BOOL, name, new Object[] {x, y}, () -> switch (name) {
      case "mm" -> t(x).mm(t(y));
      case "bmm" -> t(x).bmm(t(y));
      case "dot" -> t(x).dot(t(y));
      default -> t(x).matmul(t(y));
    }, MatmulRefs.matmul(x, y));
  }

  /** matmul's shape rule: both at least 1-D, the inner sizes equal, the batch dims broadcast. */
  static boolean multipliable(long[] sa, long[] sb) {
    if (sa.length == 0 || sb.length == 0) return false;
    long ka = sa[sa.length - 1], kb = sb.length == 1 ? sb[0] : sb[sb.length - 2];
    long[] ba = sa.length > 2 ? Arrays.copyOf(sa, sa.length - 2) : new long[0];
    long[] bb = sb.length > 2 ? Arrays.copyOf(sb, sb.length - 2) : new long[0];
    return ka == kb && Valid.broadcasts(ba, bb);
  }

  private static boolean integral(double v) {
    return v == Math.rint(v) && Math.abs(v) < 0x1p53;
  }
}
