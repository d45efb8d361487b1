package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The select plan: per line of in along dim, the int64 position of its k-th smallest (op 0), its mode (op 1) or its median ignoring NaN (op 2). */
public final class SelectPacker {
  private SelectPacker() {}

  public static final int KTHVALUE = 0, MODE = 1, NANMEDIAN = 2;

  public static final PlanLayout LAYOUT = new PlanLayout("select",
      "version", "op", "dtype", "ndim", "dim", "k", "indices", "in",
      "sizes[ndim]", "indices_strides[ndim]", "in_strides[ndim]");
  private static final int OP = LAYOUT.at("op"), DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"), DIM = LAYOUT.at("dim"),
      K = LAYOUT.at("k"), INDICES = LAYOUT.at("indices"), IN = LAYOUT.at("in");

  public static long[] pack(int op, DType dtype, int dim, long k, long indices, long in, long[] sizes, long[] indicesStrides,
                            long[] inStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(3 * n);
    p[OP] = op;
    p[DTYPE] = dtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[K] = k;
    p[INDICES] = indices;
    p[IN] = in;
    PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), indicesStrides), inStrides);
    return p;
  }
}
