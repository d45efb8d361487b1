package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The scan plan: out[..., i, ...] = in[..., 0, ...] op ... op in[..., i, ...] along dim; cummax and
 * cummin also write where each running extreme is (indices, int64; 0 for the other scans).
 */
public final class ScanPacker {
  private ScanPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("scan",
      "version", "op", "dtype", "out_dtype", "ndim", "dim", "out", "in", "indices",
      "sizes[ndim]", "out_strides[ndim]", "in_strides[ndim]", "indices_strides[ndim]");
  private static final int OP = LAYOUT.at("op"), DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"),
      NDIM = LAYOUT.at("ndim"), DIM = LAYOUT.at("dim"), OUT = LAYOUT.at("out"), IN = LAYOUT.at("in"),
      INDICES = LAYOUT.at("indices");

  public static long[] pack(int kernel, DType dtype, DType outDtype, int dim, long out, long in, long indices,
                            long[] sizes, long[] outStrides, long[] inStrides, long[] indicesStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(4 * n);
    p[OP] = kernel;
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[OUT] = out;
    p[IN] = in;
    p[INDICES] = indices;
    PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), outStrides), inStrides), indicesStrides);
    return p;
  }
}
