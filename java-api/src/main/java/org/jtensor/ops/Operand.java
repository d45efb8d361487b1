package org.jtensor.ops;

import org.jtensor.core.TensorImpl;

/**
 * An input of an elementwise op: a tensor with the snapshot of its metadata taken when the op
 * began (the op reads its geometry from it alone), or a Java scalar (a Python int, float or bool).
 */
public final class Operand {
  enum Kind { TENSOR, LONG, DOUBLE, BOOLEAN }

  final Kind kind;
  final TensorImpl tensor;
  final TensorImpl.Meta meta;  // null for a scalar
  final long l;
  final double d;

  private Operand(Kind kind, TensorImpl tensor, TensorImpl.Meta meta, long l, double d) {
    this.kind = kind;
    this.tensor = tensor;
    this.meta = meta;
    this.l = l;
    this.d = d;
  }

  public static Operand of(TensorImpl t) {
    return new Operand(Kind.TENSOR, t, t.meta(), 0, 0);
  }

  /** This tensor operand over another snapshot of its tensor (x.add(x): both operands see one). */
  Operand withMeta(TensorImpl.Meta m) {
    return new Operand(Kind.TENSOR, tensor, m, 0, 0);
  }

  public static Operand of(long v) {
    return new Operand(Kind.LONG, null, null, v, v);
  }

  public static Operand of(double v) {
    return new Operand(Kind.DOUBLE, null, null, (long) v, v);
  }

  public static Operand of(boolean v) {
    return new Operand(Kind.BOOLEAN, null, null, v ? 1 : 0, v ? 1 : 0);
  }

  boolean isTensor() {
    return kind == Kind.TENSOR;
  }

  public void promote(TypePromotion p) {
    switch (kind) {
      case TENSOR: p.tensor(tensor); break;
      case LONG: p.scalarLong(); break;
      case DOUBLE: p.scalarDouble(); break;
      default: p.scalarBoolean(); break;
    }
  }
}
