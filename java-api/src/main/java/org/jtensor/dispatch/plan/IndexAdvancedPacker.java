package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The index_advanced plan: self, other and every index tensor walked over the result's shape. */
public final class IndexAdvancedPacker {
  private IndexAdvancedPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("index_advanced",
      "version", "put", "dtype", "ndim", "nindices", "self", "other",
      "shape[ndim]", "self_strides[ndim]", "other_strides[ndim]", "index_data[nindices]", "index_dtypes[nindices]",
      "index_sizes[nindices]", "index_self_strides[nindices]", "index_strides[nindices * ndim]");
  private static final int PUT = LAYOUT.at("put"), DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"),
      NINDICES = LAYOUT.at("nindices"), SELF = LAYOUT.at("self"), OTHER = LAYOUT.at("other");

  /** One index tensor: its address and dtype, the indexed dim's size and stride in self, its strides over the shape. */
  public record Index(long data, DType dtype, long size, long selfStride, long[] strides) {}

  public static long[] pack(boolean put, DType dtype, long[] shape, long self, long[] selfStrides, long other, long[] otherStrides,
                            Index[] indices) {
    int n = shape.length, k = indices.length;
    long[] p = LAYOUT.allocate(3 * n + 4 * k + k * n);
    p[PUT] = put ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[NDIM] = n;
    p[NINDICES] = k;
    p[SELF] = self;
    p[OTHER] = other;
    int w = PlanLayout.put(p, LAYOUT.header(), shape);
    w = PlanLayout.put(p, w, selfStrides);
    w = PlanLayout.put(p, w, otherStrides);
    for (Index x : indices) p[w++] = x.data();
    for (Index x : indices) p[w++] = x.dtype().code();
    for (Index x : indices) p[w++] = x.size();
    for (Index x : indices) p[w++] = x.selfStride();
    for (Index x : indices) w = PlanLayout.put(p, w, x.strides());
    return p;
  }
}
