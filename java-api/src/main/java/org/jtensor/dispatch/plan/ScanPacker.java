package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The scan plan: out[..., i, ...] = in[..., 0, ...] op ... op in[..., i, ...] along dim. */
public final class ScanPacker {
  private ScanPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("scan",
      "version", "op", "dtype", "out_dtype", "ndim", "dim", "out", "in", "sizes[ndim]", "out_strides[ndim]", "in_strides[ndim]");
  private static final int OP = LAYOUT.at("op"), DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"),
      NDIM = LAYOUT.at("ndim"), DIM = LAYOUT.at("dim"), OUT = LAYOUT.at("out"), IN = LAYOUT.at("in");

  public static long[] pack(int kernel, DType dtype, DType outDtype, int dim, long out, long in,
                            long[] sizes, long[] outStrides, long[] inStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(3 * n);
    p[OP] = kernel;
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[OUT] = out;
    p[IN] = in;
    PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), outStrides), inStrides);
    return p;
  }
}
