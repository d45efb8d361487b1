package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.core.TensorImpl;

/**
 * PyTorch's result_type: operands promote within three priority classes (tensors with dims,
 * 0-dim tensors, Java scalars); a lower class changes the result only when its category (bool,
 * integral, floating) is higher. Java long, double and boolean act as Python int, float, bool.
 */
public final class TypePromotion {
  private DType dimResult, zeroResult, wrappedResult;

  private TypePromotion() {}

  public static TypePromotion start() {
    return new TypePromotion();
  }

  public TypePromotion tensor(TensorImpl t) {
    if (t.dim() > 0) dimResult = promote(dimResult, t.dtype());
    else zeroResult = promote(zeroResult, t.dtype());
    return this;
  }

  public TypePromotion scalarLong() {
    wrappedResult = promote(wrappedResult, DType.INT64);
    return this;
  }

  public TypePromotion scalarDouble() {
    wrappedResult = promote(wrappedResult, DType.DEFAULT_FLOAT);
    return this;
  }

  public TypePromotion scalarBoolean() {
    wrappedResult = promote(wrappedResult, DType.BOOL);
    return this;
  }

  public DType result() {
    DType r = combine(dimResult, combine(zeroResult, wrappedResult));
    if (r == null) throw new IllegalArgumentException("resultType(): no operands");
    return r;
  }

  private static DType promote(DType a, DType b) {
    return a == null ? b : b == null ? a : DType.promoteTypes(a, b);
  }

  /** combine_categories(higher, lower): the lower-priority dtype counts only if its category is higher. */
  private static DType combine(DType higher, DType lower) {
    if (higher == null) return lower;
    if (lower == null) return higher;
    if (higher.isFloatingPoint()) return higher;
    if (higher == DType.BOOL || lower.isFloatingPoint()) return DType.promoteTypes(higher, lower);
    return higher;
  }
}
