package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The index_along plan: self, index and other walked over one iteration shape, self's stride
 * along dim applied to each index value; mode says which of self and other is written.
 */
public final class IndexAlongPacker {
  private IndexAlongPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("index_along",
      "version", "mode", "dtype", "index_dtype", "ndim", "dim", "dim_size", "self", "index", "other",
      "shape[ndim]", "self_strides[ndim]", "index_strides[ndim]", "other_strides[ndim]");
  private static final int MODE = LAYOUT.at("mode"), DTYPE = LAYOUT.at("dtype"), INDEX_DTYPE = LAYOUT.at("index_dtype"),
      NDIM = LAYOUT.at("ndim"), DIM = LAYOUT.at("dim"), DIM_SIZE = LAYOUT.at("dim_size"), SELF = LAYOUT.at("self"),
      INDEX = LAYOUT.at("index"), OTHER = LAYOUT.at("other");

  /** The operands' addresses and strides, in elements, over shape. */
  public record Operands(long self, long[] selfStrides, long index, long[] indexStrides, long other, long[] otherStrides) {}

  public static long[] pack(int mode, DType dtype, DType indexDtype, int dim, long dimSize, long[] shape, Operands o) {
    int n = shape.length;
    long[] p = LAYOUT.allocate(4 * n);
    p[MODE] = mode;
    p[DTYPE] = dtype.code();
    p[INDEX_DTYPE] = indexDtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[DIM_SIZE] = dimSize;
    p[SELF] = o.self();
    p[INDEX] = o.index();
    p[OTHER] = o.other();
    int w = PlanLayout.put(p, LAYOUT.header(), shape);
    w = PlanLayout.put(p, w, o.selfStrides());
    w = PlanLayout.put(p, w, o.indexStrides());
    PlanLayout.put(p, w, o.otherStrides());
    return p;
  }
}
