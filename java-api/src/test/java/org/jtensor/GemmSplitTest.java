package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Note [One thread pool]: a BLAS product too large for one thread is cut into one block of rows (or
 * of columns, when it is wider than tall) per thread, each handed to the single-threaded BLAS as a
 * pointer offset into the operands as stored. Every cut (rows, columns, lengths that are not a
 * multiple of the 16-element part size, transposed operands, alpha and beta) against a triple loop
 * in double, for 1, 2 and 3 threads; float16 and bfloat16 the same way, through float32 copies.
 */
class GemmSplitTest extends ScopedTest {
  /** {m, k, n}: taller than wide (rows cut), wider than tall (columns cut), both odd, one row. */
  private static final long[][] SHAPES = {{301, 45, 67}, {37, 90, 257}, {129, 64, 129}, {1, 300, 1000}, {1000, 300, 1}};

  @Test
  void productsCutAcrossThreadsMatchATripleLoop() {
    ThreadCounts.each(t -> {
      for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) everyCutAndLayout(dt, t);
    });
  }

  /** matmul and addmm (alpha 0.5, beta -2) of every shape and layout in dt, run on t threads. */
  private static void everyCutAndLayout(DType dt, int t) {
    for (long[] s : SHAPES) {
      for (int layout = 0; layout < 4; layout++) {
        Tensor a = operand(s[0], s[1], (layout & 1) != 0, dt, 1 + layout);
        Tensor b = operand(s[1], s[2], (layout & 2) != 0, dt, 11 + layout);
        String what = dt + " " + java.util.Arrays.toString(s) + " layout " + layout + " threads " + t;
        check(what + " matmul", a.matmul(b), a, b, null, 0, 1);
        Tensor c = Tensor.randn(new long[] {s[0], s[2]}, new Generator(5)).to(dt);
        check(what + " addmm", c.addmm(a, b, 0.5, -2), a, b, c, 0.5, -2);
      }
    }
  }

  /**
   * float16 and bfloat16 products go to BLAS through float32 copies (gemm.cpp's try_widened_blas):
   * every cut and layout above, addmm's alpha and beta, and batches broadcast on either side (the
   * shared operand widened once), each element within half an ulp of the float64 sum once rounded.
   */
  @Test
  void sixteenBitProductsRoundOnceFromAFloat32Product() {
    ThreadCounts.each(t -> {
      for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
        everyCutAndLayout(dt, t);
        Tensor batched = Tensor.randn(new long[] {3, 37, 45}, new Generator(21)).to(dt), shared = operand(45, 29, true, dt, 22);
        Tensor left = batched.matmul(shared), right = shared.t().matmul(batched.transpose(1, 2));
        for (int i = 0; i < 3; i++) {
          check(dt + " batch " + i + ", right operand shared, threads " + t, left.select(0, i), batched.select(0, i), shared, null, 0, 1);
          check(dt + " batch " + i + ", left operand shared, threads " + t, right.select(0, i), shared.t(), batched.select(0, i).t(), null, 0, 1);
        }
      }
    });
  }

  /** A [rows, cols] operand, stored transposed when asked (the BLAS then reads it with the trans flag). */
  private static Tensor operand(long rows, long cols, boolean transposed, DType dt, long seed) {
    Generator g = new Generator(seed);
    return transposed ? Tensor.randn(new long[] {cols, rows}, g).to(dt).t() : Tensor.randn(new long[] {rows, cols}, g).to(dt);
  }

  private static void check(String what, Tensor got, Tensor a, Tensor b, Tensor c, double beta, double alpha) {
    long m = a.size(0), k = a.size(1), n = b.size(1);
    double[] av = a.contiguous().toDoubleArray(), bv = b.contiguous().toDoubleArray(), gv = got.toDoubleArray();
    double[] cv = c == null ? null : c.toDoubleArray();
    double tol = a.dtype() == DType.FLOAT64 ? 1e-12 : 1e-5;
    // a 16-bit result: the float32 sum rounded once, within half an ulp of its magnitude
    double round = a.dtype() == DType.BFLOAT16 ? 0x1p-8 : a.dtype() == DType.FLOAT16 ? 0x1p-11 : 0;
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double sum = 0, mag = 0;
        for (int q = 0; q < k; q++) {
          double p = av[(int) (i * k + q)] * bv[(int) (q * n + j)];
          sum += p;
          mag += Math.abs(p);
        }
        double want = alpha * sum + (cv == null ? 0 : beta * cv[(int) (i * n + j)]);
        assertEquals(want, gv[(int) (i * n + j)],
            tol * (1 + Math.abs(alpha) * mag + (cv == null ? 0 : Math.abs(cv[(int) (i * n + j)]))) + round * Math.abs(want),
            what + " at " + i + "," + j);
      }
    }
  }
}
