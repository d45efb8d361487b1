package org.jtensor.dispatch;

import org.jtensor.DType;
import org.jtensor.dispatch.plan.ElementwisePacker;
import org.jtensor.core.TensorImpl;

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
  /** Each tensor operand as the snapshot the op read its geometry from (its tensor: {@code owner}); null for a scalar. */
  public final TensorImpl.Meta[] metas;
  public final long[][] strides;       // in elements, 0 where broadcast
  /**
   * Scalar operands as the plan carries them, two words per operand (ElementwisePacker.scalar);
   * null while there is none, so a tensor-only op allocates nothing for them.
   */
  public long[] scalars;
  /** Up to 4 scalar arguments (alpha, slope, a bound...), shared with the caller: never modified. */
  public final double[] params;
  /**
   * The same arguments as exact int64s where the caller has them (an int64 alpha or bound past
   * 2^53, which a double rounds); null: each is its double truncated. Never modified.
   */
  public final long[] exactParams;
  /** The op allocated the output itself: no other thread can reach it yet, so it needs no hold. */
  public boolean outputIsNew;

  public ElementwisePlan(String name, Op op, DType dtype, long[] shape, int operands, double[] params,
                         long[] exactParams) {
    if (params.length > 4) throw new IllegalArgumentException(name + "(): at most 4 scalar parameters, got " + params.length);
    if (exactParams != null && exactParams.length != params.length) {
      throw new IllegalArgumentException(name + "(): " + exactParams.length + " exact parameters for " + params.length);
    }
    this.name = name;
    this.op = op;
    this.dtype = dtype;
    this.shape = shape;
    this.metas = new TensorImpl.Meta[operands];
    this.strides = new long[operands][];
    this.params = params;
    this.exactParams = exactParams;
  }

  /** Operand k is the scalar v (an exact long when integral, else a double) converted to dtype t. */
  public void setScalar(int k, DType t, double v, long exact, boolean integral) {
    if (scalars == null) scalars = new long[2 * metas.length];
    ElementwisePacker.scalar(scalars, k, t, integral ? exact : Double.doubleToRawLongBits(v), integral);
  }
}
