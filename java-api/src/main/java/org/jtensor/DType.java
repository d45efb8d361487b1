package org.jtensor;

/**
 * Element types, in the order of native {@code jt::DType} (the ordinal is the native code).
 * Promotion follows PyTorch's {@code promote_types}: bool &lt; integers &lt; floating point, uint8
 * with int8 widens to int16, float16 with bfloat16 widens to float32.
 */
public enum DType {
  // Each constant states its kind, its order within the kind (promotion) and its item size, the
  // width of the Java primitive that carries an element across JNI (bulk reads and writes copy raw
  // bytes into byte[]/short[]/...); its name is the constant's in lower case. The native dtype
  // table (jt/dtype.h) states the same facts for C++: dispatch.NativeContract compares the two
  // before any kernel runs, and a difference stops the load. A leaf type: it imports nothing.
  BOOL(Kind.BOOL, 0, Byte.BYTES),
  UINT8(Kind.INTEGRAL, 1, Byte.BYTES),
  INT8(Kind.INTEGRAL, 2, Byte.BYTES),
  INT16(Kind.INTEGRAL, 3, Short.BYTES),
  INT32(Kind.INTEGRAL, 4, Integer.BYTES),
  INT64(Kind.INTEGRAL, 5, Long.BYTES),
  FLOAT16(Kind.FLOATING, 1, Short.BYTES),
  BFLOAT16(Kind.FLOATING, 1, Short.BYTES),
  FLOAT32(Kind.FLOATING, 2, Float.BYTES),
  FLOAT64(Kind.FLOATING, 3, Double.BYTES);

  /** The category used by promotion: a higher category always wins over a lower one. */
  public enum Kind { BOOL, INTEGRAL, FLOATING }

  private final Kind kind;
  private final int rank;  // order within the kind
  private final int itemSize;
  private final String typeName;

  DType(Kind kind, int rank, int itemSize) {
    this.kind = kind;
    this.rank = rank;
    this.itemSize = itemSize;
    this.typeName = name().toLowerCase(java.util.Locale.ROOT);
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
    return typeName;
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

  /**
   * PyTorch's checked_convert of a Python float: throws when v does not fit this dtype without
   * overflow. bool takes anything; a floating dtype takes NaN and the infinities.
   */
  public void checkFits(String op, double v) {
    boolean fits;
    if (this == BOOL) fits = true;
    else if (isFloatingPoint()) fits = Double.isNaN(v) || Double.isInfinite(v) || Math.abs(v) <= maxFinite();
    else fits = v >= minValue() && v <= maxValue() && v < 0x1p63;  // NaN fails every comparison
    if (!fits) throw overflow(op, Double.toString(v));
  }

  /**
   * checkFits of a scalar as jtensor's double arguments read it: an integer value (within int64) as
   * a Python int, anything else as a Python float.
   */
  public void checkScalar(String op, double v) {
    if (v == Math.rint(v) && Math.abs(v) < 0x1p63) checkFits(op, (long) v);
    else checkFits(op, v);
  }

  /** checked_convert of a Python int: unsigned dtypes also take negatives that wrap once (-1 into uint8). */
  public void checkFits(String op, long v) {
    boolean fits;
    if (this == BOOL) fits = true;
    else if (isFloatingPoint()) fits = Math.abs((double) v) <= maxFinite();
    else if (this == UINT8) fits = v <= maxValue() && v >= -maxValue();
    else fits = v >= minValue() && v <= maxValue();
    if (!fits) throw overflow(op, Long.toString(v));
  }

  private IllegalArgumentException overflow(String op, String value) {
    return new IllegalArgumentException(op + "(): value " + value + " cannot be converted to type " + this + " without overflow");
  }

  /**
   * The dtype a kernel computes this one in (PyTorch's opmath_type): float32 for float16 and
   * bfloat16, the dtype itself otherwise. Some scalars (lerp's weight, addmm's alpha and beta) are
   * converted to it rather than to the tensor's dtype.
   */
  public DType opMath() {
    return this == FLOAT16 || this == BFLOAT16 ? FLOAT32 : this;
  }

  /** The range of an integral dtype. */
  /** Whether v is a value of this dtype: 0 or 1 for bool, within the integer range, or within the finite range of a floating dtype. */
  boolean holds(long v) {
    if (this == BOOL) return v == 0 || v == 1;
    if (isFloatingPoint()) return Math.abs((double) v) <= maxFinite();
    return v >= minValue() && v <= maxValue();
  }

  private long minValue() {
    return this == UINT8 ? 0 : -(1L << (8 * itemSize - 1));
  }

  private long maxValue() {
    return this == UINT8 ? 255 : (1L << (8 * itemSize - 1)) - 1;
  }

  /** The largest finite value of a floating dtype. */
  double maxFinite() {
    switch (this) {
      case FLOAT16: return 65504.0;
      case BFLOAT16: return 0x1.fep127;
      case FLOAT32: return Float.MAX_VALUE;
      default: return Double.MAX_VALUE;
    }
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
