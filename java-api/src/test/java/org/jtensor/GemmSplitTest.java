package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Note [One thread pool]: a BLAS product too large for one thread is cut into one block of rows (or
 * of columns, when it is wider than tall) per thread, each handed to the single-threaded BLAS as a
 * pointer offset into the operands as stored. Every cut (rows, columns, lengths that are not a
 * multiple of the 16-element part size, transposed operands, alpha and beta) against a triple loop
 * in double, for 1, 2 and 3 threads.
 */
class GemmSplitTest extends ScopedTest {
  /** {m, k, n}: taller than wide (rows cut), wider than tall (columns cut), both odd, one row. */
  private static final long[][] SHAPES = {{301, 45, 67}, {37, 90, 257}, {129, 64, 129}, {1, 300, 1000}, {1000, 300, 1}};

  @Test
  void productsCutAcrossThreadsMatchATripleLoop() {
    ThreadCounts.each(t -> {
      for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
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
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double sum = 0, mag = 0;
        for (int q = 0; q < k; q++) {
          double p = av[(int) (i * k + q)] * bv[(int) (q * n + j)];
          sum += p;
          mag += Math.abs(p);
        }
        double want = alpha * sum + (cv == null ? 0 : beta * cv[(int) (i * n + j)]);
        assertEquals(want, gv[(int) (i * n + j)], tol * (1 + Math.abs(alpha) * mag + (cv == null ? 0 : Math.abs(cv[(int) (i * n + j)]))),
            what + " at " + i + "," + j);
      }
    }
  }
}
