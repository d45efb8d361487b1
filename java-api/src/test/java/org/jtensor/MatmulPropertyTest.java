package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.jtensor.ops.ViewOps;
import org.junit.jupiter.api.Test;

/**
 * matmul in every form and layout against a plain triple loop; mm, bmm, addmm, dot, outer, linear;
 * on a subclass's device too, agreeing with the CPU (CudaMatmulPropertyTest).
 */
class MatmulPropertyTest extends ScopedTest {
  private static final long[][][] FORMS = {
      {{5}, {5}}, {{3, 5}, {5}}, {{5}, {5, 4}}, {{3, 5}, {5, 4}}, {{2, 3, 5}, {5, 4}}, {{3, 5}, {2, 5, 4}},
      {{5}, {2, 5, 4}}, {{2, 3, 5}, {5}}, {{2, 1, 3, 5}, {4, 5, 2}}, {{1, 3, 5}, {2, 5, 4}}, {{0, 5}, {5, 3}}, {{3, 0}, {0, 4}}};

  /** Where the ops run beside the CPU: the CPU alone here. */
  protected DeviceParity parity() {
    return DeviceParity.CPU;
  }

  private Tensor on(String what, java.util.function.Function<Tensor[], Tensor> op, Tensor... in) {
    return parity().apply(what, op, in);
  }

  @Test
  void everyFormAndLayoutMatchesATripleLoop() {
    Random rnd = new Random(3);
    DType[] dtypes = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.INT32, DType.INT64};
    int checked = 0;
    for (DType dt : dtypes) {
      for (long[][] f : FORMS) {
        for (int layout = 0; layout < 3; layout++) {
          Tensor a = operand(rnd, dt, f[0], layout), b = operand(rnd, dt, f[1], layout + 1);
          Tensor c = on("matmul " + dt, t -> t[0].matmul(t[1]), a, b);
          checked += check(a, b, c, dt);
        }
      }
    }
    assertTrue(checked > 1000, "elements checked: " + checked);
  }

  private static int check(Tensor a, Tensor b, Tensor c, DType dt) {
    Tensor a2 = a.dim() == 1 ? a.unsqueeze(0) : a, b2 = b.dim() == 1 ? b.unsqueeze(1) : b;
    long[] ba = java.util.Arrays.copyOf(a2.shape(), a2.dim() - 2), bb = java.util.Arrays.copyOf(b2.shape(), b2.dim() - 2);
    long[] batch = ShapeOracle.broadcast(ba, bb);
    long m = a2.size(-2), k = a2.size(-1), n = b2.size(-1);
    long[] full = java.util.Arrays.copyOf(batch, batch.length + 2);
    full[batch.length] = m;
    full[batch.length + 1] = n;
    Tensor cf = c.reshape(full);
    assertEquals(dt, c.dtype());
    int count = 0;
    for (long e = 0; e < RefView.arange(full).numel(); e++) {
      long[] idx = RefView.unflat(e, full);
      double s = 0, mag = 0;
      for (long q = 0; q < k; q++) {
        double av = a2.getDouble(pick(a2, idx, batch.length, idx[batch.length], q));
        double bv = b2.getDouble(pick(b2, idx, batch.length, q, idx[batch.length + 1]));
        s += av * bv;
        mag += Math.abs(av * bv);
      }
      double tol = dt == DType.FLOAT64 ? 1e-12 : dt == DType.FLOAT32 ? 1e-5 : dt == DType.FLOAT16 ? 3e-3 : dt == DType.BFLOAT16 ? 2e-2 : 0;
      assertEquals(s, cf.getDouble(idx), tol * (1 + mag), dt + " at " + java.util.Arrays.toString(idx));
      count++;
    }
    return count;
  }

  /** The index into a (batch-broadcast) operand for output batch idx and matrix position (r, c). */
  private static long[] pick(Tensor t, long[] idx, int nb, long r, long c) {
    int tb = t.dim() - 2;
    long[] out = new long[t.dim()];
    for (int i = 0; i < tb; i++) out[i] = t.size(i) == 1 ? 0 : idx[nb - tb + i];
    out[tb] = r;
    out[tb + 1] = c;
    return out;
  }

  /** layout 0: contiguous; 1: the last two dims transposed in memory; 2: every other element. */
  private static Tensor operand(Random rnd, DType dt, long[] shape, int layout) {
    int n = (int) RefView.arange(shape).numel();
    double[] v = new double[2 * n + 1];
    for (int i = 0; i < v.length; i++) v[i] = dt.isFloatingPoint() ? rnd.nextGaussian() : rnd.nextInt(7) - 3;
    Tensor flat = Tensor.fromArray(v).to(dt);
    switch (layout % 3) {
      case 1:
        if (shape.length >= 2) {
          long[] sw = shape.clone();
          ViewOps.swap(sw, sw.length - 1, sw.length - 2);
          return flat.narrow(0, 0, n).view(sw).transpose(-1, -2);
        }
        return flat.narrow(0, 0, n).view(shape);
      case 2: return flat.slice(0, 0, 2L * n, 2).view(shape);
      default: return flat.narrow(0, 0, n).view(shape);
    }
  }

  /**
   * Batches of GEMMs large enough to go to the BLAS (a convolution's per-sample products): split over
   * the threads, one whole matrix each, when the batch divides evenly, threaded one by one otherwise;
   * both agree with each matrix multiplied alone, for every batch size and thread count.
   */
  @Test
  void batchesOfLargeProductsMatchEachProductAlone() {
    ThreadCounts.each(t -> {
      for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
        for (long batch : new long[] {1, 2, 3, 5, 8}) {
          Tensor a = Tensor.randn(new long[] {batch, 32, 288}, new Generator(batch)).to(dt);
          Tensor b = Tensor.randn(new long[] {288, 64}, new Generator(7)).to(dt);  // broadcast over the batch
          Tensor c = a.matmul(b);
          for (long i = 0; i < batch; i++) {
            double[] want = a.select(0, i).matmul(b).toDoubleArray(), got = c.select(0, i).toDoubleArray();
            for (int j = 0; j < want.length; j++) {
              assertEquals(want[j], got[j], 1e-4 * Math.max(1, Math.abs(want[j])), dt + " batch " + batch + " threads " + t + " at " + i);
            }
          }
        }
      }
    });
  }

  @Test
  void familyAndErrors() {
    Tensor a = Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3), b = Tensor.arange(0, 12, 1, DType.FLOAT32).view(3, 4);
    assertArrayEquals(new float[] {20, 23, 26, 29, 56, 68, 80, 92}, on("mm", t -> t[0].mm(t[1]), a, b).toFloatArray());
    Tensor bias = Tensor.fromArray(new float[] {1, 1, 1, 1});
    assertArrayEquals(new float[] {41, 47, 53, 59, 113, 137, 161, 185}, on("addmm", t -> t[0].addmm(t[1], t[2], 1, 2), bias, a, b).toFloatArray());
    assertArrayEquals(new float[] {20, 23, 26, 29, 56, 68, 80, 92}, on("bmm", t -> t[0].bmm(t[1]), a.unsqueeze(0), b.unsqueeze(0)).toFloatArray());
    assertEquals(5.0, on("dot", t -> t[0].dot(t[1]), Tensor.fromArray(new float[] {1, 2}), Tensor.fromArray(new float[] {1, 2})).item());
    assertArrayEquals(new float[] {3, 4, 6, 8}, on("outer", t -> t[0].outer(t[1]), Tensor.fromArray(new float[] {1, 2}), Tensor.fromArray(new float[] {3, 4}))
        .toFloatArray());
    Tensor w = Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3);  // out_features 2, in_features 3
    Tensor y = on("linear", t -> Tensor.linear(t[0], t[1], t[2]), Tensor.ones(4, 3), w, Tensor.fromArray(new float[] {10, 20}));
    assertArrayEquals(new long[] {4, 2}, y.shape());
    assertArrayEquals(new float[] {13, 32}, y.select(0, 0).toFloatArray());
    assertThrows(IllegalArgumentException.class, () -> a.matmul(a));
    assertThrows(IllegalArgumentException.class, () -> Tensor.scalar(1.0).matmul(a));
    assertThrows(IllegalArgumentException.class, () -> a.matmul(b.to(DType.FLOAT64)));
    assertThrows(IllegalArgumentException.class, () -> a.mm(Tensor.ones(3)));
    assertThrows(IllegalArgumentException.class, () -> a.unsqueeze(0).bmm(b.unsqueeze(0).expand(2, 3, 4)));
    Tensor big = Tensor.randn(new long[] {64, 64}, new Generator(1));
    Tensor viaBlas = on("sgemm", t -> t[0].matmul(t[0].t()), big);
    Tensor viaLoops = big.to(DType.FLOAT64).matmul(big.t().to(DType.FLOAT64));
    assertArrayEquals(viaLoops.toFloatArray(), viaBlas.toFloatArray(), 1e-3f, "OpenBLAS sgemm agrees with dgemm");
  }
}
