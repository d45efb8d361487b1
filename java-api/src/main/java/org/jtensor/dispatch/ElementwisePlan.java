package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.TensorImpl;

/**
 * One elementwise call, ready for a Backend: the op, the dtype its inputs share, the iteration
 * shape, and per operand (0 is the output) either a tensor with its broadcast strides or a
 * scalar. Built by the library's TensorIterator; a Backend only executes it.
 */
public final class ElementwisePlan {
  /** The op as the user called it (floorDivide, add_), for errors. */
  public final String name;
  public final Op op;
  public final DType dtype;
  public final long[] shape;
  public final TensorImpl[] tensors;   // null where the operand is a scalar
  public final long[][] strides;       // in elements, 0 where broadcast
  /** A scalar operand's value: a double's raw bits, or an exact long where scalarIntegral. */
  public final long[] scalarValues;
  public final boolean[] scalarIntegral;
  /** The dtype a scalar operand becomes (native code converts it, rounding once). */
  public final DType[] scalarDtypes;
  /** Up to 4 scalar arguments (alpha, slope, a bound...), shared with the caller: never modified. */
  public final double[] params;
  /** The op allocated the output itself: no other thread can reach it yet, so it needs no hold. */
  public boolean outputIsNew;

  public ElementwisePlan(String name, Op op, DType dtype, long[] shape, int operands, double[] params) {
    if (params.length > 4) throw new IllegalArgumentException(name + "(): at most 4 scalar parameters, got " + params.length);
    this.name = name;
    this.op = op;
    this.dtype = dtype;
    this.shape = shape;
    this.tensors = new TensorImpl[operands];
    this.strides = new long[operands][];
    this.scalarValues = new long[operands];
    this.scalarIntegral = new boolean[operands];
    this.scalarDtypes = new DType[operands];
    this.params = params;
  }

  /** Operand k is the scalar v (an exact long when integral, else a double) converted to dtype t. */
  public void setScalar(int k, DType t, double v, long exact, boolean integral) {
    scalarDtypes[k] = t;
    scalarIntegral[k] = integral;
    scalarValues[k] = integral ? exact : Double.doubleToRawLongBits(v);
  }
}
