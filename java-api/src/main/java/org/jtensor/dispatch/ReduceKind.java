package org.jtensor.dispatch;

import org.jtensor.DType;

/** The dtype a reduction or scan returns for its input's dtype (PyTorch's rules). */
public enum ReduceKind {
  /** sum, prod, cumsum, cumprod: integers and bool accumulate in int64, floating types keep theirs. */
  ACCUMULATE,
  /** amax, amin: the input's dtype. */
  SAME,
  /** any, all: bool. */
  BOOL,
  /** argmax, argmin: int64 indices. */
  INDEX;

  public DType out(DType in) {
    switch (this) {
      case ACCUMULATE: return in.isFloatingPoint() ? in : DType.INT64;
      case SAME: return in;
      case BOOL: return DType.BOOL;
      default: return DType.INT64;
    }
  }
}
