package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The fill plan: every element of dst becomes one value (an exact long or a double's bits). */
public final class FillPacker {
  private FillPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("fill",
      "version", "ndim", "dst", "dtype", "integral", "value", "sizes[ndim]", "strides[ndim]");
  private static final int NDIM = LAYOUT.at("ndim"), DST = LAYOUT.at("dst"), DTYPE = LAYOUT.at("dtype"),
      INTEGRAL = LAYOUT.at("integral"), VALUE = LAYOUT.at("value");

  public static long[] pack(long dst, DType dtype, boolean integral, long valueBits, long[] sizes, long[] strides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(2 * n);
    p[NDIM] = n;
    p[DST] = dst;
    p[DTYPE] = dtype.code();
    p[INTEGRAL] = integral ? 1 : 0;
    p[VALUE] = valueBits;
    PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), strides);
    return p;
  }
}
