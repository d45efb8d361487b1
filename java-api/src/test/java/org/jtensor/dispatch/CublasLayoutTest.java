package org.jtensor.dispatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * CublasLayout on the CPU: for every layout of A, B and C (row-major, transposed, padded leading
 * dims, vectors, empty depth) and of the batch (none, one dim, dims that merge, broadcast
 * operands, dims that do not merge and become loops of calls), cuBLAS's column-major definition
 * evaluated on the mapped arguments gives what jtensor's row-major definition gives, and the
 * arguments are ones cuBLAS accepts. Layouts cuBLAS cannot read in place map to null.
 */
class CublasLayoutTest {
  /** One operand's geometry: a matrix of rows x cols, its strides, and its strides over the batch dims. */
  private record Operand(long rows, long cols, long row, long col, long[] batch) {
    static Operand rowMajor(long rows, long cols, long pad, long[] batch) {
      return new Operand(rows, cols, cols + pad, 1, batch);
    }

    static Operand colMajor(long rows, long cols, long pad, long[] batch) {
      return new Operand(rows, cols, 1, rows + pad, batch);
    }

    /** Elements of storage the operand reaches, plus one. */
    long span(long[] sizes) {
      long s = (rows - 1) * row + (cols - 1) * col;
      for (int d = 0; d < sizes.length; d++) s += (sizes[d] - 1) * batch[d];
      return Math.max(s, 0) + 1;
    }
  }

  /** Batch strides of a dense stack of matrices of `each` elements over sizes; 0 where broadcast. */
  private static long[] dense(long[] sizes, long each, boolean[] broadcast) {
    long[] s = new long[sizes.length];
    long step = each;
    for (int d = sizes.length - 1; d >= 0; d--) {
      if (broadcast != null && broadcast[d]) continue;
      s[d] = step;
      step *= sizes[d];
    }
    return s;
  }

  @Test
  void everyMatrixLayoutAgreesWithTheRowMajorDefinition() {
    long[][] mnk = {{5, 7, 3}, {1, 6, 4}, {6, 1, 4}, {4, 5, 1}, {3, 4, 0}, {1, 1, 1}, {8, 8, 8}};
    int checked = 0;
    for (long[] d : mnk) {
      long m = d[0], n = d[1], k = d[2];
      for (int la = 0; la < 4; la++) {
        for (int lb = 0; lb < 4; lb++) {
          for (int lc = 0; lc < 3; lc++) {
            long[] none = new long[0];
            Operand a = layout(la, m, k, none), b = layout(lb, k, n, none), c = layout(lc % 2 == 0 ? lc : 1, m, n, none);
            if (lc == 2) c = Operand.rowMajor(m, n, 3, none);
            checkCall(m, n, k, none, a, b, c, 2.5, 0.5);
            checked++;
          }
        }
      }
    }
    assertEquals(7 * 4 * 4 * 3, checked);
  }

  /** 0, 2: row-major (padded by 2 for 2); 1, 3: column-major (padded by 3 for 3). */
  private static Operand layout(int which, long rows, long cols, long[] batch) {
    return switch (which) {
      case 0 -> Operand.rowMajor(rows, cols, 0, batch);
      case 1 -> Operand.colMajor(rows, cols, 0, batch);
      case 2 -> Operand.rowMajor(rows, cols, 2, batch);
      default -> Operand.colMajor(rows, cols, 3, batch);
    };
  }

  @Test
  void batchesMergeBroadcastAndLoop() {
    long m = 3, n = 4, k = 5;
    long[] sizes = {2, 3, 4};
    for (int la = 0; la < 2; la++) {
      for (int lc = 0; lc < 2; lc++) {
        // dense stacks: every batch dim merges into one cuBLAS batch of 24
        Operand a = layout(la, m, k, dense(sizes, m * k, null)), b = layout(1 - la, k, n, dense(sizes, k * n, null));
        Operand c = layout(lc, m, n, dense(sizes, m * n, null));
        CublasLayout l = checkCall(m, n, k, sizes, a, b, c, 1, 0);
        assertEquals(24, l.batchCount());
        assertEquals(1, l.outerCount());
        // A broadcast over the middle dim: dims cannot all merge, the outer ones become calls
        Operand ab = layout(la, m, k, dense(sizes, m * k, new boolean[] {false, true, false}));
        l = checkCall(m, n, k, sizes, ab, b, c, 1, 1);
        assertEquals(4, l.batchCount());
        assertEquals(6, l.outerCount());
        // B broadcast over every batch dim (a matrix times a stack): stride 0, one call
        Operand bb = layout(1 - la, k, n, new long[3]);
        l = checkCall(m, n, k, sizes, a, bb, c, -1, 2);
        assertEquals(24, l.batchCount());
        assertEquals(1, l.outerCount());
      }
    }
    // size-1 batch dims are dropped; a batch of 0 dims maps to one matrix
    long[] ones = {1, 2, 1};
    Operand a = layout(0, m, k, new long[] {999, m * k, 7}), b = layout(0, k, n, new long[] {5, k * n, 1});
    Operand c = layout(0, m, n, new long[] {0, m * n, 0});
    assertEquals(2, checkCall(m, n, k, ones, a, b, c, 1, 0).batchCount());
  }

  @Test
  void layoutsCublasCannotReadAreRefused() {
    long[] none = new long[0];
    // A expanded along its rows (row stride 0): no leading dimension >= its extent
    assertNull(map(4, 3, 2, none, new Operand(4, 2, 0, 1, none), Operand.rowMajor(2, 3, 0, none), Operand.rowMajor(4, 3, 0, none)));
    // B with no unit stride
    assertNull(map(4, 3, 2, none, Operand.rowMajor(4, 2, 0, none), new Operand(2, 3, 6, 2, none), Operand.rowMajor(4, 3, 0, none)));
    // C with no unit stride
    assertNull(map(4, 3, 2, none, Operand.rowMajor(4, 2, 0, none), Operand.rowMajor(2, 3, 0, none), new Operand(4, 3, 6, 2, none)));
    // sizes past int
    assertNull(map(1L << 31, 1, 1, none, Operand.rowMajor(1L << 31, 1, 0, none), Operand.rowMajor(1, 1, 0, none),
        Operand.rowMajor(1L << 31, 1, 0, none)));
    // a vector operand's stride does not matter where its extent is 1
    assertNotNull(map(1, 3, 4, none, new Operand(1, 4, 0, 1, none), Operand.rowMajor(4, 3, 0, none), Operand.rowMajor(1, 3, 0, none)));
  }

  private static CublasLayout map(long m, long n, long k, long[] sizes, Operand a, Operand b, Operand c) {
    return CublasLayout.of(m, n, k, a.row, a.col, b.row, b.col, c.row, c.col, sizes, a.batch, b.batch, c.batch);
  }

  /** Maps, checks cuBLAS's argument rules, and compares both definitions on random integers (exact in double). */
  private static CublasLayout checkCall(long m, long n, long k, long[] sizes, Operand a, Operand b, Operand c,
                                        double alpha, double beta) {
    CublasLayout l = map(m, n, k, sizes, a, b, c);
    assertNotNull(l, () -> "no mapping for m=" + m + " n=" + n + " k=" + k + " " + a + " " + b + " " + c);
    assertTrue(l.lda() >= Math.max(1, l.transA() ? l.k() : l.m()), "lda");
    assertTrue(l.ldb() >= Math.max(1, l.transB() ? l.n() : l.k()), "ldb");
    assertTrue(l.ldc() >= Math.max(1, l.m()), "ldc");
    Random r = new Random(m * 31 + n * 7 + k);
    double[] da = random(r, a.span(sizes)), db = random(r, b.span(sizes)), dc = random(r, c.span(sizes));
    double[] want = dc.clone(), got = dc.clone();
    rowMajorReference(m, n, k, sizes, a, da, b, db, c, want, alpha, beta);
    cublasDefinition(l, l.swapped() ? db : da, l.swapped() ? da : db, got, alpha, beta);
    assertArrayEquals(want, got, () -> "m=" + m + " n=" + n + " k=" + k + " " + a + " " + b + " " + c + " -> " + l);
    return l;
  }

  private static double[] random(Random r, long n) {
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) v[i] = r.nextInt(19) - 9;
    return v;
  }

  /** jtensor's definition: C[b](i, j) = alpha * sum_l A[b](i, l) B[b](l, j) + beta * C[b](i, j). */
  private static void rowMajorReference(long m, long n, long k, long[] sizes, Operand a, double[] da, Operand b, double[] db,
                                        Operand c, double[] dc, double alpha, double beta) {
    long batches = 1;
    for (long s : sizes) batches *= s;
    for (long t = 0; t < batches; t++) {
      long oa = 0, ob = 0, oc = 0, rest = t;
      for (int d = sizes.length - 1; d >= 0; d--) {
        long i = rest % sizes[d];
        rest /= sizes[d];
        oa += i * a.batch[d];
        ob += i * b.batch[d];
        oc += i * c.batch[d];
      }
      for (long i = 0; i < m; i++) {
        for (long j = 0; j < n; j++) {
          double sum = 0;
          for (long q = 0; q < k; q++) sum += da[(int) (oa + i * a.row + q * a.col)] * db[(int) (ob + q * b.row + j * b.col)];
          int at = (int) (oc + i * c.row + j * c.col);
          dc[at] = alpha * sum + beta * dc[at];
        }
      }
    }
  }

  /** cublasGemmStridedBatchedEx's definition, column-major, for every call of the layout. */
  private static void cublasDefinition(CublasLayout l, double[] x, double[] y, double[] c, double alpha, double beta) {
    for (long call = 0; call < l.outerCount(); call++) {
      long[] off = l.outerOffsets(call);
      for (int p = 0; p < l.batchCount(); p++) {
        long ox = off[0] + p * l.strideA(), oy = off[1] + p * l.strideB(), oc = off[2] + p * l.strideC();
        for (int i = 0; i < l.m(); i++) {
          for (int j = 0; j < l.n(); j++) {
            double sum = 0;
            for (int q = 0; q < l.k(); q++) {
              double xv = x[(int) (ox + (l.transA() ? q + (long) i * l.lda() : i + (long) q * l.lda()))];
              double yv = y[(int) (oy + (l.transB() ? j + (long) q * l.ldb() : q + (long) j * l.ldb()))];
              sum += xv * yv;
            }
            int at = (int) (oc + i + (long) j * l.ldc());
            c[at] = alpha * sum + beta * c[at];
          }
        }
      }
    }
  }
}
