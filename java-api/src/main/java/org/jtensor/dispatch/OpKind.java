package org.jtensor.dispatch;

import org.jtensor.DType;

/** How an elementwise op derives its computation dtype and its result dtype from the operands'. */
public enum OpKind {
  /** result_type of the operands, computed and returned in it (add, mul, pow, maximum, ...). */
  ARITH,
  /** like ARITH, but integers and bool become the default float (div, the float-valued math). */
  TO_FLOAT,
  /** computed in result_type, returns bool (comparisons, logical ops, isnan). */
  PREDICATE,
  /** where(cond, a, b): a and b promote; the condition must be bool. */
  WHERE;

  public DType compute(DType common) {
    return this == TO_FLOAT && !common.isFloatingPoint() ? DType.DEFAULT_FLOAT : common;
  }

  public DType result(DType compute) {
    return this == PREDICATE ? DType.BOOL : compute;
  }
}
