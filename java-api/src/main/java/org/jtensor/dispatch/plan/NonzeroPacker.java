package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The nonzero plan: src's non-zero coordinates into out ([rows, ndim] int64), or their count when out is 0. */
public final class NonzeroPacker {
  private NonzeroPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("nonzero",
      "version", "dtype", "ndim", "src", "out", "rows", "sizes[ndim]", "strides[ndim]");
  private static final int DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"), SRC = LAYOUT.at("src"),
      OUT = LAYOUT.at("out"), ROWS = LAYOUT.at("rows");

  public static long[] pack(DType dtype, long src, long[] sizes, long[] strides, long out, long rows) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(2 * n);
    p[DTYPE] = dtype.code();
    p[NDIM] = n;
    p[SRC] = src;
    p[OUT] = out;
    p[ROWS] = rows;
    PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), strides);
    return p;
  }
}
