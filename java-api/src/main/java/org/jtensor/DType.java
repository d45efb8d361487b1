package org.jtensor;

import java.util.Locale;

/**
 * Element types, in the order of native {@code jt::DType} (the ordinal is the native code).
 * Promotion follows PyTorch's {@code promote_types}: bool &lt; integers &lt; floating point, uint8
 * with int8 widens to int16, float16 with bfloat16 widens to float32.
 */
public enum DType {
  BOOL(1, Kind.BOOL, 0),
  UINT8(1, Kind.INTEGRAL, 1),
  INT8(1, Kind.INTEGRAL, 2),
  INT16(2, Kind.INTEGRAL, 3),
  INT32(4, Kind.INTEGRAL, 4),
  INT64(8, Kind.INTEGRAL, 5),
  FLOAT16(2, Kind.FLOATING, 1),
  BFLOAT16(2, Kind.FLOATING, 1),
  FLOAT32(4, Kind.FLOATING, 2),
  FLOAT64(8, Kind.FLOATING, 3);

  /** The category used by promotion: a higher category always wins over a lower one. */
  public enum Kind { BOOL, INTEGRAL, FLOATING }

  private final int itemSize;
  private final Kind kind;
  private final int rank;  // order within the kind

  DType(int itemSize, Kind kind, int rank) {
    this.itemSize = itemSize;
    this.kind = kind;
    this.rank = rank;
  }

  /** PyTorch's default floating dtype, which Java {@code double} scalars promote to. */
  public static final DType DEFAULT_FLOAT = FLOAT32;

  public int itemSize() {
    return itemSize;
  }

  public Kind kind() {
    return kind;
  }

  public boolean isFloatingPoint() {
    return kind == Kind.FLOATING;
  }

  /** Integral in PyTorch's sense (bool excluded unless asked for). */
  public boolean isIntegral(boolean includeBool) {
    return kind == Kind.INTEGRAL || (includeBool && kind == Kind.BOOL);
  }

  /** The code of this dtype in the native API. */
  public int code() {
    return ordinal();
  }

  /** PyTorch's name: {@code float32}, {@code bfloat16}, ... */
  public String typeName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return typeName();
  }

  /** The dtype of a PyTorch name such as {@code "float32"}. */
  public static DType fromName(String name) {
    for (DType t : values()) {
      if (t.typeName().equals(name)) return t;
    }
    throw new IllegalArgumentException("unknown dtype '" + name + "'");
  }

  /** The smallest dtype both a and b convert to without losing their category (torch.promote_types). */
  public static DType promoteTypes(DType a, DType b) {
    if (a == b) return a;
    if (a.kind != b.kind) return a.kind.compareTo(b.kind) > 0 ? a : b;
    if (a.kind == Kind.INTEGRAL) {
      if ((a == UINT8 && b == INT8) || (a == INT8 && b == UINT8)) return INT16;
      return a.rank > b.rank ? a : b;
    }
    // floating: the two 16-bit formats hold different ranges, so they meet at float32
    if (a.rank == b.rank) return FLOAT32;
    return a.rank > b.rank ? a : b;
  }
}
