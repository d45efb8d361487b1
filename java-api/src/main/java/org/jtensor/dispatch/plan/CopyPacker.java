package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The copy plan: dst = src over one geometry, converting dtypes; strides in elements. */
public final class CopyPacker {
  private CopyPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("copy",
      "version", "ndim", "dst", "dst_dtype", "src", "src_dtype", "sizes[ndim]", "dst_strides[ndim]", "src_strides[ndim]");
  private static final int NDIM = LAYOUT.at("ndim"), DST = LAYOUT.at("dst"), DST_DTYPE = LAYOUT.at("dst_dtype"),
      SRC = LAYOUT.at("src"), SRC_DTYPE = LAYOUT.at("src_dtype");

  public static long[] pack(long dst, DType dstType, long src, DType srcType, long[] sizes, long[] dstStrides, long[] srcStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(3 * n);
    p[NDIM] = n;
    p[DST] = dst;
    p[DST_DTYPE] = dstType.code();
    p[SRC] = src;
    p[SRC_DTYPE] = srcType.code();
    int w = PlanLayout.put(p, LAYOUT.header(), sizes);
    w = PlanLayout.put(p, w, dstStrides);
    PlanLayout.put(p, w, srcStrides);
    return p;
  }
}
