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
  public final long[] scalarBits;      // a scalar operand's value as the bytes of its dtype
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
    this.scalarBits = new long[operands];
    this.params = params;
  }

  /** The bytes of value v in dtype t, little-endian in a long: what a scalar operand carries. */
  public static long scalarBits(DType t, double v, long exact, boolean integral) {
    switch (t) {
      case BOOL: return (integral ? exact != 0 : v != 0) ? 1 : 0;
      case UINT8: case INT8: return (integral ? exact : (long) v) & 0xffL;
      case INT16: return (integral ? exact : (long) v) & 0xffffL;
      case INT32: return (integral ? exact : (long) v) & 0xffffffffL;
      case INT64: return integral ? exact : (long) v;
      case FLOAT16: return HalfBits.half(integral ? (float) exact : (float) v);
      case BFLOAT16: return HalfBits.bfloat16(integral ? (float) exact : (float) v);
      case FLOAT32: return Float.floatToRawIntBits(integral ? (float) exact : (float) v) & 0xffffffffL;
      default: return Double.doubleToRawLongBits(integral ? (double) exact : v);
    }
  }
}
