package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.dispatch.Op;

/** PyTorch's refusals of an elementwise call, made before its kernel runs: bool subtraction, integer division by zero, an output that cannot take the result. */
public final class ElementwiseChecks {
  private ElementwiseChecks() {}

  /**
   * PyTorch's sub_check and neg's check: subtraction with a bool operand (a bool tensor, 0-dim or
   * not, or a Python bool) and negation of a bool tensor are refused in its words, before promotion
   * could make them arithmetic (bool - float was float32 here).
   */
  static void refuseBoolSubtraction(Op op, String name, Operand[] in) {
    int bools = 0;
    for (Operand o : in) {
      if (o.kind == Operand.Kind.BOOLEAN || (o.isTensor() && o.tensor.dtype() == DType.BOOL)) bools++;
    }
    if (bools == 0) return;
    if (op == Ops.NEG) throw new IllegalArgumentException(name + "(): " + NEG_BOOL);
    throw new IllegalArgumentException(name + "(): " + (bools > 1 ? SUB_TWO_BOOLS : SUB_BOOL));
  }

  /** PyTorch's words for a subtraction with one bool operand (rsub refuses with them too). */
  public static final String SUB_BOOL = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
      + "invert a mask, use the `~` or `logical_not()` operator instead.";
  private static final String SUB_TWO_BOOLS = "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
      + "or `logical_xor()` operator instead.";
  private static final String NEG_BOOL = "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
      + "invert a mask, use the `~` or `logical_not()` operator instead.";

  /** A scalar divisor counts as the kernel reads it, wrapped to the dtype (int8 % 256 divides by 0), as PyTorch's does. */
  static void checkNonzeroDivisor(String name, Operand divisor, DType compute) {
    boolean zero;
    if (!divisor.isTensor()) {
      zero = divisor.kind == Operand.Kind.DOUBLE ? divisor.d == 0 : wrapsToZero(divisor.l, compute);
    } else {
      // a 0-dim divisor of a wider dtype reaches the kernel wrapped to the computation's, as a scalar
      // does: int8 % tensor(256) divides by 0 (PyTorch: ZeroDivisionError), so test what it reads
      TensorImpl d = divisor.tensor;
      TensorImpl narrowed = d.dim() == 0 && d.dtype() != compute ? DataOps.cloneAs(name, d, divisor.meta, compute, d.device(), false) : null;
      TensorImpl isZero;
      try {
        isZero = ElementwiseOps.run(Ops.EQ, name, null, new double[0], narrowed != null ? Operand.of(narrowed) : divisor, Operand.of(0L));
      } finally {
        if (narrowed != null) narrowed.release();
      }
      try {
        TensorImpl any = ReductionOps.reduce(Ops.ANY, name, isZero, null, false, 1.0);
        try {
          zero = Dispatcher.backend(any.device()).loadLong(name, any, 0) != 0;
        } finally {
          any.release();
        }
      } finally {
        isZero.release();
      }
    }
    if (zero) throw new ArithmeticException(name + "(): ZeroDivisionError: integer division or modulo by zero");
  }

  private static boolean wrapsToZero(long v, DType dtype) {
    switch (dtype.itemSize()) {
      case 1: return (byte) v == 0;
      case 2: return (short) v == 0;
      case 4: return (int) v == 0;
      default: return v == 0;
    }
  }

  /** In-place and out=: the shape must be the broadcast shape, the result must cast to it, no partial overlap. */
  static void checkOut(String op, TensorImpl out, TensorImpl.Meta outMeta, long[] shape, DType result, Operand[] in) {
    if (!Arrays.equals(outMeta.sizes, shape)) {
      throw new IllegalArgumentException(op + "(): output with shape " + Shapes.str(outMeta.sizes)
          + " doesn't match the broadcast shape " + Shapes.str(shape));
    }
    if (!canCast(result, out.dtype())) {
      throw new IllegalArgumentException(op + "(): " + cannotCast(result, out.dtype()));
    }
    DataOps.checkWritable(op, outMeta);
    out.checkInBounds(op, outMeta);
    int item = outMeta.dtype.itemSize();  // each snapshot's own dtype sizes its bytes
    for (Operand o : in) {
      if (o.isTensor() && o.tensor != out && DataOps.overlap(outMeta, item, o.meta, o.meta.dtype.itemSize()) == DataOps.Overlap.PARTIAL) {
        throw new IllegalArgumentException(op + "(): " + DataOps.OVERLAP_WORDS);
      }
    }
  }

  /**
   * An in-place op's write checks alone (self's bytes writable, no operand partly overlapping them),
   * for an op that refuses self's dtype in its own words: PyTorch's TensorIterator checks the overlap
   * before its kernel refuses the dtype, so x.bitwiseLeftShift_ on read-only float bytes names those.
   */
  public static void checkInPlaceTarget(String op, Operand self, Operand... in) {
    DataOps.checkWritable(op, self.meta);
    int item = self.meta.dtype.itemSize();
    for (Operand o : in) {
      if (o.isTensor() && o.tensor != self.tensor && DataOps.overlap(self.meta, item, o.meta, o.meta.dtype.itemSize()) == DataOps.Overlap.PARTIAL) {
        throw new IllegalArgumentException(op + "(): " + DataOps.OVERLAP_WORDS);
      }
    }
  }

  /** PyTorch's refusal of an in-place or out= result its output cannot hold (in jtensor's dtype names). */
  public static String cannotCast(DType result, DType out) {
    return "result type " + result + " can't be cast to the desired output type " + out;
  }

  /** PyTorch's can_cast: no float to integral, no non-bool to bool. */
  static boolean canCast(DType from, DType to) {
    if (from.isFloatingPoint() && !to.isFloatingPoint()) return false;
    return from == DType.BOOL || to != DType.BOOL;
  }
}
