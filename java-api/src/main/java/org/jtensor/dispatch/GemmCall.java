package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.core.TensorImpl;


/**
 * One batched GEMM: C[b] = alpha * A[b] @ B[b] + beta * C[b], A m x k, B k x n, C m x n, each
 * given by its data and its (row, column) strides in elements; the batch dims by their sizes
 * and each operand's strides over them (0 where broadcast).
 */
public final class GemmCall {
  public final TensorImpl a, b, c;
  /** A's and B's dtype, and C's, as the call was made: the kernel refuses operands re-typed since (setData). */
  public final DType dtype, outDtype;
  public final long m, n, k;
  public final long aRow, aCol, bRow, bCol, cRow, cCol;
  public final long[] batchSizes, aBatch, bBatch, cBatch;
  public final double alpha, beta;

  public GemmCall(TensorImpl a, long aRow, long aCol, TensorImpl b, long bRow, long bCol, TensorImpl c, long cRow, long cCol,
                  long m, long n, long k, long[] batchSizes, long[] aBatch, long[] bBatch, long[] cBatch,
                  double alpha, double beta) {
    this.a = a;
    this.b = b;
    this.c = c;
    this.dtype = a.dtype();
    this.outDtype = c.dtype();
    this.aRow = aRow;
    this.aCol = aCol;
    this.bRow = bRow;
    this.bCol = bCol;
    this.cRow = cRow;
    this.cCol = cCol;
    this.m = m;
    this.n = n;
    this.k = k;
    this.batchSizes = batchSizes;
    this.aBatch = aBatch;
    this.bBatch = bBatch;
    this.cBatch = cBatch;
    this.alpha = alpha;
    this.beta = beta;
  }
}
