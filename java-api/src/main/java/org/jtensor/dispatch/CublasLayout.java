package org.jtensor.dispatch;

import java.util.ArrayList;
import java.util.List;

/**
 * A GEMM call of jtensor's (row and column strides, batch dims by size and stride) as cuBLAS's
 * column-major strided-batched arguments, without copies, as PyTorch maps it: a C with unit
 * column stride is, read column-major, C^T, so cuBLAS computes C^T = B^T A^T with B as its first
 * operand ({@code swapped}); a C with unit row stride is computed as is. Each operand is read
 * column-major with its leading dimension, transposed (op T) where its unit stride runs the
 * other way. The batch dims merge where every operand steps through them as through one; the
 * innermost is cuBLAS's batch, the rest are loops of calls ({@code outer*}). Pure arithmetic:
 * unit-tested on the CPU against cuBLAS's definition.
 */
record CublasLayout(boolean swapped, boolean transA, boolean transB, int m, int n, int k, int lda, long strideA,
                    int ldb, long strideB, int ldc, long strideC, int batchCount,
                    long[] outerSizes, long[] outerA, long[] outerB, long[] outerC) {

  /**
   * The cuBLAS arguments for C[b] = A[b] @ B[b] (A m x k, B k x n, strides in elements), or null
   * where cuBLAS cannot read an operand in place (a zero or overlapping leading stride, a size
   * past int): jtensor's own kernel serves those. A and B of the result are cuBLAS's first and
   * second operands: jtensor's B and A when swapped; outerA and outerB likewise.
   */
  static CublasLayout of(long m, long n, long k, long aRow, long aCol, long bRow, long bCol, long cRow, long cCol,
                         long[] batchSizes, long[] aBatch, long[] bBatch, long[] cBatch) {
    if (m > Integer.MAX_VALUE || n > Integer.MAX_VALUE || k > Integer.MAX_VALUE) return null;
    long ldcRow = rowMajorLd(m, n, cRow, cCol), ldcCol = rowMajorLd(n, m, cCol, cRow);
    boolean swapped = ldcRow >= 0;
    if (!swapped && ldcCol < 0) return null;
    // cuBLAS's X (rows x depth) and Y (depth x cols): jtensor's B^T and A^T when swapped.
    long xRows = swapped ? n : m, yCols = swapped ? m : n;
    // X's (row, depth) and Y's (depth, col) strides. X is read column-major as xRows x k (op N: unit
    // row stride) or as k x xRows (op T: unit depth stride); Y as k x yCols (N) or yCols x k (T).
    long xR = swapped ? bCol : aRow, xC = swapped ? bRow : aCol, yR = swapped ? aCol : bRow, yC = swapped ? aRow : bCol;
    long ldxN = rowMajorLd(k, xRows, xC, xR), ldxT = rowMajorLd(xRows, k, xR, xC);
    long ldyN = rowMajorLd(yCols, k, yC, yR), ldyT = rowMajorLd(k, yCols, yR, yC);
    if ((ldxN < 0 && ldxT < 0) || (ldyN < 0 && ldyT < 0)) return null;
    boolean transX = ldxN < 0, transY = ldyN < 0;

    long[] xBatch = swapped ? bBatch : aBatch, yBatch = swapped ? aBatch : bBatch;
    List<long[]> dims = mergedBatchDims(batchSizes, xBatch, yBatch, cBatch);  // each {size, x, y, c}, outermost first
    long count = 1, sx = 0, sy = 0, sc = 0;
    if (!dims.isEmpty()) {
      long[] inner = dims.remove(dims.size() - 1);
      count = inner[0];
      sx = inner[1];
      sy = inner[2];
      sc = inner[3];
    }
    if (count > Integer.MAX_VALUE) return null;
    int outer = dims.size();
    long[] os = new long[outer], ox = new long[outer], oy = new long[outer], oc = new long[outer];
    for (int d = 0; d < outer; d++) {
      long[] dim = dims.get(d);
      os[d] = dim[0];
      ox[d] = dim[1];
      oy[d] = dim[2];
      oc[d] = dim[3];
    }
    return new CublasLayout(swapped, transX, transY, (int) xRows, (int) yCols, (int) k,
        (int) (transX ? ldxT : ldxN), sx, (int) (transY ? ldyT : ldyN), sy, (int) (swapped ? ldcRow : ldcCol), sc,
        (int) count, os, ox, oy, oc);
  }

  /** Calls to make: the product of the outer batch sizes. */
  long outerCount() {
    long c = 1;
    for (long s : outerSizes) c *= s;
    return c;
  }

  /** Element offsets of outer call i into cuBLAS's first operand, second operand and C. */
  long[] outerOffsets(long i) {
    long[] off = new long[3];
    for (int d = outerSizes.length - 1; d >= 0; d--) {
      long j = i % outerSizes[d];
      i /= outerSizes[d];
      off[0] += j * outerA[d];
      off[1] += j * outerB[d];
      off[2] += j * outerC[d];
    }
    return off;
  }

  /**
   * The leading dimension of a rows x cols matrix read row-major (element (i, j) at i * ld + j),
   * which is cols x rows read column-major; -1 when the strides do not allow it. cuBLAS wants
   * ld >= max(1, cols) and below 2^31; a stride of a size-1 dim, or of an empty matrix, does not matter.
   */
  static long rowMajorLd(long rows, long cols, long rowStride, long colStride) {
    if (colStride != 1 && cols > 1) return -1;
    long min = Math.max(1, cols);
    long ld = rows <= 1 || cols == 0 ? min : rowStride;
    return ld >= min && ld <= Integer.MAX_VALUE ? ld : -1;
  }

  /** Batch dims without size-1 dims, merged into the one before where all operands allow; {size, x, y, c} each. */
  private static List<long[]> mergedBatchDims(long[] sizes, long[] x, long[] y, long[] c) {
    List<long[]> dims = new ArrayList<>();
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] == 1) continue;
      long[] last = dims.isEmpty() ? null : dims.get(dims.size() - 1);
      long s = sizes[d];
      if (last != null && x[d] * s == last[1] && y[d] * s == last[2] && c[d] * s == last[3]) {
        last[0] *= s;
        last[1] = x[d];
        last[2] = y[d];
        last[3] = c[d];
      } else {
        dims.add(new long[] {s, x[d], y[d], c[d]});
      }
    }
    return dims;
  }
}
