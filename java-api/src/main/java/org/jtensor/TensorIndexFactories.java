package org.jtensor;

import org.jtensor.core.ScalarTypes;
import org.jtensor.ops.Searching;

/**
 * Tensor's factories of index tensors, PyTorch's torch.tril_indices, torch.triu_indices,
 * torch.unravel_index, torch.searchsorted and torch.bucketize: int64 (or int32) coordinates, no gradient. A superclass of {@link TensorJoins} for the reason that one
 * is a class: static methods are inherited and called as Tensor's. It has no instances of its own.
 */
public abstract sealed class TensorIndexFactories extends TensorFunctions permits TensorJoins {
  TensorIndexFactories() {}

  /** torch.tril_indices: the [2, N] row and column indices of a row x col matrix's lower triangle (on and below diagonal offset), row by row. */
  public static Tensor trilIndices(long row, long col, long offset) {
    return triangle("trilIndices", "tril_indices", row, col, offset, true, DType.INT64);
  }

  public static Tensor trilIndices(long row, long col, long offset, DType dtype) {
    return triangle("trilIndices", "tril_indices", row, col, offset, true, dtype);
  }

  /** torch.triu_indices: the upper triangle's (on and above diagonal offset). */
  public static Tensor triuIndices(long row, long col, long offset) {
    return triangle("triuIndices", "triu_indices", row, col, offset, false, DType.INT64);
  }

  public static Tensor triuIndices(long row, long col, long offset, DType dtype) {
    return triangle("triuIndices", "triu_indices", row, col, offset, false, dtype);
  }

  /**
   * torch.unravel_index: for flat indices into a row-major tensor of shape, one int64 tensor of
   * coordinates per dim, floor(index / stride) mod size as PyTorch 2.13 computes them (so an index
   * past either end wraps, as there: unravel_index(6, (3, 2)) is (0, 0)).
   */
  public static java.util.List<Tensor> unravelIndex(Tensor indices, long... shape) {
    String op = "unravelIndex";
    DType dt = Tensor.implOf(indices, op).dtype();
    if (!dt.isIntegral(false)) {
      throw new IllegalArgumentException(op + "(): expected 'indices' to be integer dtype, but got " + dt);
    }
    for (long s : shape) {
      if (s < 0) throw new IllegalArgumentException(op + "(): 'shape' cannot have negative values, but got " + java.util.Arrays.toString(shape));
      if (s == 0) throw new ArithmeticException(op + "(): a dim of size 0 in 'shape' divides by zero (PyTorch's ZeroDivisionError)");
    }
    org.jtensor.core.Shapes.numel(op, shape);  // the strides below cannot overflow
    java.util.List<Tensor> out = new java.util.ArrayList<>(shape.length);
    try (TensorScope scope = TensorScope.open()) {
      Tensor flat = indices.to(DType.INT64);
      long stride = 1;
      for (int j = shape.length - 1; j >= 0; j--) {
        out.add(0, scope.keep(flat.floorDivide(stride).remainder(shape[j])));
        stride *= shape[j];
      }
      return out;
    } catch (RuntimeException e) {
      for (Tensor t : out) t.close();
      throw e;
    }
  }

  /** Rows that hold none of the triangle are skipped before the walk, so a huge row count with an empty triangle costs nothing. */
  private static Tensor triangle(String op, String kernel, long row, long col, long offset, boolean lower, DType dtype) {
    if (row < 0) throw new IllegalArgumentException(op + "(): row must be non-negative, got" + row);
    if (col < 0) throw new IllegalArgumentException(op + "(): col must be non-negative, got" + col);
    if (dtype != DType.INT64 && dtype != DType.INT32) throw ScalarTypes.notImplemented(op, kernel, dtype);
    long first = 0, end = col == 0 ? 0 : row;  // the rows [first, end) hold at least one element
    if (lower && offset < 0) first = offset <= -row ? row : -offset;
    if (!lower && offset >= col - row) end = Math.max(0, Math.min(row, col - offset));
    long count = 0;
    for (long r = first; r < end; r++) {
      count += lower ? (offset >= col - 1 - r ? col : r + offset + 1) : col - Math.max(0, r + offset);
      if (count > (Integer.MAX_VALUE - 8) / 2) {
        throw new IllegalArgumentException(op + "(): the triangle of a " + row + " x " + col + " matrix has more than "
            + (Integer.MAX_VALUE - 8) / 2 + " elements, more indices than one tensor built here can hold");
      }
    }
    long[] idx = new long[(int) (2 * count)];
    int k = 0;
    for (long r = first; r < end; r++) {
      long lo = lower ? 0 : Math.max(0, r + offset), hi = lower ? (offset >= col - 1 - r ? col - 1 : r + offset) : col - 1;
      for (long c = lo; c <= hi; c++, k++) {
        idx[k] = r;
        idx[(int) count + k] = c;
      }
    }
    Tensor t = Tensor.fromArray(idx, 2, count);
    if (dtype == DType.INT64) return t;
    try (t) {
      return t.to(dtype);
    }
  }

  // ---- searchsorted and bucketize (ops.Searching): int64 positions (int32 when asked), no gradient ----
  /** torch.searchsorted: where each value goes in sortedSequence (1-D, or a row per leading index of values), the first such place. */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values) { return searchsorted(sortedSequence, values, false, false, null, null); }
  /** right: the last such place (PyTorch's right=True). */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right) { return searchsorted(sortedSequence, values, false, right, null, null); }
  /** PyTorch's keywords in its order: side ("left" or "right") and sorter (int64, each row's sorting positions) may be null. */
  public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
    return Searching.searchsorted("searchsorted", sortedSequence, values, outInt32, right, side, sorter);
  }
  /** A scalar value (a 0-dim result), searched in the result type of sortedSequence and value. */
  public static Tensor searchsorted(Tensor sortedSequence, double value, boolean right) {
    Tensor.implOf(sortedSequence, "searchsorted");
    try (Tensor v = Tensor.scalar(value, sortedSequence.resultType(value))) { return searchsorted(sortedSequence, v, right); }
  }
  public static Tensor searchsorted(Tensor sortedSequence, long value, boolean right) {
    Tensor.implOf(sortedSequence, "searchsorted");
    try (Tensor v0 = Tensor.scalar(value); Tensor v = v0.to(sortedSequence.resultType(value))) { return searchsorted(sortedSequence, v, right); }
  }
  /** torch.bucketize: searchsorted of input's values in 1-D boundaries. */
  public static Tensor bucketize(Tensor input, Tensor boundaries, boolean right) { return bucketize(input, boundaries, false, right); }
  public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) { return Searching.bucketize(input, boundaries, outInt32, right); }
}
