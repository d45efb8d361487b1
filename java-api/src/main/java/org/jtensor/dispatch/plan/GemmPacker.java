package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The gemm plan: C[b] = alpha * A[b] @ B[b] + beta * C[b] for every batch entry; A m x k, B k x n,
 * C m x n, each by its address and (row, column) strides in elements, the batch dims by their
 * sizes and each operand's strides over them (0 where broadcast).
 */
public final class GemmPacker {
  private GemmPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("gemm",
      "version", "dtype", "out_dtype", "m", "n", "k", "a", "b", "c",
      "a_row", "a_col", "b_row", "b_col", "c_row", "c_col", "alpha", "beta", "batch_ndim",
      "batch_sizes[batch_ndim]", "a_batch[batch_ndim]", "b_batch[batch_ndim]", "c_batch[batch_ndim]");
  private static final int DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"),
      M = LAYOUT.at("m"), N = LAYOUT.at("n"), K = LAYOUT.at("k"), A = LAYOUT.at("a"), B = LAYOUT.at("b"), C = LAYOUT.at("c"),
      A_ROW = LAYOUT.at("a_row"), A_COL = LAYOUT.at("a_col"), B_ROW = LAYOUT.at("b_row"), B_COL = LAYOUT.at("b_col"),
      C_ROW = LAYOUT.at("c_row"), C_COL = LAYOUT.at("c_col"), ALPHA = LAYOUT.at("alpha"), BETA = LAYOUT.at("beta"),
      BATCH_NDIM = LAYOUT.at("batch_ndim");

  /** The matrices' geometry: row and column strides of A, B and C, in that order. */
  public record Matrices(long aRow, long aCol, long bRow, long bCol, long cRow, long cCol) {}

  public static long[] pack(DType dtype, DType outDtype, long m, long n, long k, long a, long b, long c, Matrices g,
                            double alpha, double beta, long[] batchSizes, long[] aBatch, long[] bBatch, long[] cBatch) {
    int bn = batchSizes.length;
    long[] p = LAYOUT.allocate(4 * bn);
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[M] = m;
    p[N] = n;
    p[K] = k;
    p[A] = a;
    p[B] = b;
    p[C] = c;
    p[A_ROW] = g.aRow();
    p[A_COL] = g.aCol();
    p[B_ROW] = g.bRow();
    p[B_COL] = g.bCol();
    p[C_ROW] = g.cRow();
    p[C_COL] = g.cCol();
    p[ALPHA] = Double.doubleToRawLongBits(alpha);
    p[BETA] = Double.doubleToRawLongBits(beta);
    p[BATCH_NDIM] = bn;
    int w = PlanLayout.put(p, LAYOUT.header(), batchSizes);
    w = PlanLayout.put(p, w, aBatch);
    w = PlanLayout.put(p, w, bBatch);
    PlanLayout.put(p, w, cBatch);
    return p;
  }
}
