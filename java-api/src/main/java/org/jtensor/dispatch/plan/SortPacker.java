package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The sort plan: values and int64 indices of in sorted along dim (stable, NaN largest). */
public final class SortPacker {
  private SortPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("sort",
      "version", "dtype", "ndim", "dim", "descending", "values", "indices", "in",
      "sizes[ndim]", "values_strides[ndim]", "indices_strides[ndim]", "in_strides[ndim]");
  private static final int DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"), DIM = LAYOUT.at("dim"),
      DESCENDING = LAYOUT.at("descending"), VALUES = LAYOUT.at("values"), INDICES = LAYOUT.at("indices"), IN = LAYOUT.at("in");

  public static long[] pack(DType dtype, int dim, boolean descending, long values, long indices, long in, long[] sizes,
                            long[] valuesStrides, long[] indicesStrides, long[] inStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(4 * n);
    p[DTYPE] = dtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[DESCENDING] = descending ? 1 : 0;
    p[VALUES] = values;
    p[INDICES] = indices;
    p[IN] = in;
    PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), valuesStrides),
        indicesStrides), inStrides);
    return p;
  }
}
