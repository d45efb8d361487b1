package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.jtensor.ops.ViewOps;
import org.junit.jupiter.api.Test;

/**
 * Reductions, scans and softmax over random dim sets, keepdim, dtypes and layouts against
 * plain-loop references; on a subclass's device too, agreeing with the CPU (CudaReductionPropertyTest).
 */
class ReductionPropertyTest extends ScopedTest {
  interface Ref { double apply(double[] v); }

  private static final DType[] FLOATS = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16};

  /** Where the ops run beside the CPU: the CPU alone here. */
  protected DeviceParity parity() {
    return DeviceParity.CPU;
  }

  @Test
  void valueReductionsMatchTheReference() {
    Random rnd = new Random(11);
    int checked = 0;
    for (int trial = 0; trial < 400; trial++) {
      DType dt = DType.values()[trial % DType.values().length];
      long[] shape = shape(rnd);
      Tensor x = input(rnd, dt, shape, trial);
      int[] dims = dims(rnd, shape.length);
      boolean keep = rnd.nextBoolean();
      checked += compare("sum", x, t -> t.sum(dims, keep), dims, keep, v -> { double s = 0; for (double a : v) s += a; return s; });
      checked += compare("prod", x, t -> t.prod(dims, keep), dims, keep, v -> { double s = 1; for (double a : v) s *= a; return s; });
      checked += compare("any", x, t -> t.any(dims, keep), dims, keep, v -> { for (double a : v) if (a != 0) return 1; return 0; });
      checked += compare("all", x, t -> t.all(dims, keep), dims, keep, v -> { for (double a : v) if (a == 0) return 0; return 1; });
      if (x.numel() > 0) {
        checked += compare("amax", x, t -> t.amax(dims, keep), dims, keep, v -> { double m = Double.NEGATIVE_INFINITY; for (double a : v) m = Math.max(m, a); return m; });
        checked += compare("amin", x, t -> t.amin(dims, keep), dims, keep, v -> { double m = Double.POSITIVE_INFINITY; for (double a : v) m = Math.min(m, a); return m; });
      }
      if (dt.isFloatingPoint()) {
        checked += compare("mean", x, t -> t.mean(dims, keep), dims, keep, v -> { double s = 0; for (double a : v) s += a; return s / v.length; });
        if (x.numel() > 0) {
          checked += compare("var", x, t -> t.var(dims, 1, keep), dims, keep, v -> var(v, 1));
          checked += compare("std", x, t -> t.std(dims, 0, keep), dims, keep, v -> Math.sqrt(var(v, 0)));
          checked += compare("norm", x, t -> t.norm(2, dims, keep), dims, keep, v -> { double s = 0; for (double a : v) s += a * a; return Math.sqrt(s); });
          checked += compare("logsumexp", x, t -> t.logsumexp(dims, keep), dims, keep, v -> {
            double m = Double.NEGATIVE_INFINITY, s = 0;
            for (double a : v) m = Math.max(m, a);
            for (double a : v) s += Math.exp(a - m);
            return Math.log(s) + m;
          });
        }
      }
    }
    assertTrue(checked > 5000, "outputs checked: " + checked);
  }

  @Test
  void argReductionsCumulativeAndSoftmax() {
    Random rnd = new Random(5);
    for (int trial = 0; trial < 200; trial++) {
      DType dt = trial % 2 == 0 ? DType.FLOAT32 : DType.INT32;
      long[] shape = shape(rnd);
      if (RefView.arange(shape).numel() == 0 || shape.length == 0) continue;
      Tensor x = input(rnd, dt, shape, trial);
      int d = rnd.nextInt(shape.length);
      DeviceParity on = parity();
      Tensor maxValues = on.apply1("max values", t -> t.max(d, false).values(), x);
      Tensor maxIndices = on.apply1("max indices", t -> t.max(d, false).indices(), x);
      Tensor am = on.apply1("argmin", t -> t.argmin(d, true), x);
      Tensor cs = on.apply1("cumsum", t -> t.cumsum(d), x), cp = on.apply1("cumprod", t -> t.cumprod(d), x);
      Tensor sm = dt.isFloatingPoint() ? on.apply1("softmax", t -> t.softmax(d), x) : null;
      Tensor lsm = dt.isFloatingPoint() ? on.apply1("logSoftmax", t -> t.logSoftmax(d), x) : null;
      long[] outShape = ViewOps.remove(shape, d);
      for (long e = 0; e < RefView.arange(outShape).numel(); e++) {
        long[] o = RefView.unflat(e, outShape);
        double best = Double.NEGATIVE_INFINITY, worst = Double.POSITIVE_INFINITY, run = 0, runp = 1, z = 0, m = Double.NEGATIVE_INFINITY;
        long bi = 0, wi = 0;
        for (long i = 0; i < shape[d]; i++) {
          double v = x.getDouble(ViewOps.insert(o, d, i));
          if (v > best) { best = v; bi = i; }
          if (v < worst) { worst = v; wi = i; }
          m = Math.max(m, v);
        }
        for (long i = 0; i < shape[d]; i++) z += Math.exp(x.getDouble(ViewOps.insert(o, d, i)) - m);
        assertEquals(best, maxValues.getDouble(o));
        assertEquals(bi, maxIndices.getLong(o), "argmax keeps the first maximum");
        assertEquals(wi, am.getLong(ViewOps.insert(o, d, 0)));
        for (long i = 0; i < shape[d]; i++) {
          long[] at = ViewOps.insert(o, d, i);
          double v = x.getDouble(at);
          run += v;
          runp *= v;
          assertEquals(run, cs.getDouble(at), 1e-4 * Math.max(1, Math.abs(run)), "cumsum");
          assertEquals(runp, cp.getDouble(at), 1e-4 * Math.max(1, Math.abs(runp)), "cumprod");
          if (sm != null) assertEquals(Math.exp(v - m) / z, sm.getDouble(at), 1e-6, "softmax");
          if (lsm != null) assertEquals(v - m - Math.log(z), lsm.getDouble(at), 1e-5, "logSoftmax");
        }
      }
      assertEquals(dt.isFloatingPoint() ? DType.FLOAT32 : DType.INT64, cs.dtype());
    }
  }

  @Test
  void dtypeRulesAndErrors() {
    assertEquals(DType.INT64, Tensor.ones(new long[] {3}, DType.INT8).sum().dtype());
    assertEquals(DType.INT64, Tensor.ones(new long[] {3}, DType.BOOL).sum().dtype());
    assertEquals(3L, Tensor.ones(new long[] {3}, DType.BOOL).sum().itemLong());
    assertEquals(DType.FLOAT16, Tensor.ones(new long[] {3}, DType.FLOAT16).sum().dtype());
    assertEquals(DType.BOOL, Tensor.ones(3).any().dtype());
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(4).mean());
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(3, 4).sum(new int[] {0, 0}, false));
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(0, 3).amax(0));
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(3).sum(1));
    assertArrayEquals(new float[] {0, 0, 0}, Tensor.zeros(0, 3).sum(0).toFloatArray());
    // in float16 a running sum of ones stalls at 2048 (2049 is not representable); in float it reaches 4096
    assertEquals(4096.0, Tensor.ones(new long[] {4096}, DType.FLOAT16).sum().item(), "float16 sums accumulate in float");
    assertEquals(1, Tensor.fromArray(new float[] {1, Float.NaN, 3, Float.NaN}).argmax().itemLong(), "the first NaN wins");
  }

  private static double var(double[] v, long correction) {
    double mean = 0, s = 0;
    for (double a : v) mean += a;
    mean /= v.length;
    for (double a : v) s += (a - mean) * (a - mean);
    return s / Math.max(v.length - correction, 0);
  }

  private int compare(String op, Tensor x, java.util.function.Function<Tensor, Tensor> f, int[] dims, boolean keep, Ref ref) {
    Tensor r = parity().apply1(op, f, x);
    long[] shape = x.shape();
    boolean[] red = new boolean[shape.length];
    if (dims == null || dims.length == 0) java.util.Arrays.fill(red, true);
    else for (int d : dims) red[d] = true;
    long[] outShape = ShapeOracle.reduced(x.shape(), red, keep);
    assertArrayEquals(outShape, r.shape(), op + " shape");
    long[] keptShape = ShapeOracle.reduced(x.shape(), red, true);
    int count = 0;
    for (long e = 0; e < RefView.arange(outShape).numel(); e++) {
      long[] o = RefView.unflat(e, keptShape);
      java.util.List<Double> vals = new java.util.ArrayList<>();
      collect(x, red, o, 0, new long[shape.length], vals);
      double[] v = vals.stream().mapToDouble(Double::doubleValue).toArray();
      double want = ref.apply(v);
      double got = r.getDouble(RefView.unflat(e, outShape));
      double mag = 1;
      for (double a : v) mag += Math.abs(a);
      double tol = (r.dtype() == DType.FLOAT16 ? 4e-3 : r.dtype() == DType.BFLOAT16 ? 3e-2 : 1e-5) * mag;
      if (op.equals("prod") || op.equals("var") || op.equals("std")) tol *= 1 + Math.abs(want);
      if (!r.dtype().isFloatingPoint()) {
        want = ElementwiseReference.narrow((long) want, r.dtype());
        tol = 0;
      }
      if (!Close.within(got, want, tol)) {  // the shared rule: a NaN where a number is wanted fails
        fail(op + " on " + x.dtype() + java.util.Arrays.toString(shape) + " dims " + java.util.Arrays.toString(dims) + " at "
            + java.util.Arrays.toString(o) + ": got " + got + ", want " + want);
      }
      count++;
    }
    return count;
  }

  private static void collect(Tensor x, boolean[] red, long[] o, int d, long[] idx, java.util.List<Double> out) {
    long[] shape = x.shape();
    if (d == shape.length) {
      out.add(x.getDouble(idx));
      return;
    }
    if (red[d]) {
      for (long i = 0; i < shape[d]; i++) {
        idx[d] = i;
        collect(x, red, o, d + 1, idx, out);
      }
    } else {
      idx[d] = o[d];
      collect(x, red, o, d + 1, idx, out);
    }
  }

  private static long[] shape(Random rnd) {
    int n = rnd.nextInt(4);
    long[] s = new long[n];
    for (int d = 0; d < n; d++) s[d] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(5);
    return s;
  }

  private static int[] dims(Random rnd, int n) {
    if (n == 0 || rnd.nextInt(4) == 0) return null;
    java.util.List<Integer> ds = new java.util.ArrayList<>();
    for (int d = 0; d < n; d++) if (rnd.nextBoolean()) ds.add(d);
    if (ds.isEmpty()) ds.add(rnd.nextInt(n));
    return ds.stream().mapToInt(Integer::intValue).toArray();
  }

  private static Tensor input(Random rnd, DType dt, long[] shape, int trial) {
    int n = (int) RefView.arange(shape).numel();
    double[] v = new double[2 * n];
    for (int i = 0; i < v.length; i++) v[i] = dt.isFloatingPoint() ? rnd.nextGaussian() : rnd.nextInt(7) - 3;
    if (dt == DType.UINT8 || dt == DType.BOOL) for (int i = 0; i < v.length; i++) v[i] = Math.abs(v[i]);
    Tensor flat = Tensor.fromArray(v).to(dt);
    if (trial % 3 == 1) return flat.slice(0, 1, 2L * n + 1, 2).view(shape);  // strided
    if (trial % 3 == 2 && shape.length >= 2) {  // transposed
      long[] rev = shape.clone();
      ViewOps.swap(rev, 0, shape.length - 1);
      return flat.narrow(0, 0, n).view(rev).transpose(0, shape.length - 1);
    }
    return flat.narrow(0, 0, n).view(shape);
  }
}
