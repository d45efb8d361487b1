package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The softmax plan: softmax (log false) or log_softmax of in along dim into out, in's shape and dtype. */
public final class SoftmaxPacker {
  private SoftmaxPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("softmax",
      "version", "log", "dtype", "ndim", "dim", "out", "in", "sizes[ndim]", "out_strides[ndim]", "in_strides[ndim]");
  private static final int LOG = LAYOUT.at("log"), DTYPE = LAYOUT.at("dtype"), NDIM = LAYOUT.at("ndim"),
      DIM = LAYOUT.at("dim"), OUT = LAYOUT.at("out"), IN = LAYOUT.at("in");

  public static long[] pack(boolean log, DType dtype, int dim, long out, long in, long[] sizes, long[] outStrides,
                            long[] inStrides) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(3 * n);
    p[LOG] = log ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[NDIM] = n;
    p[DIM] = dim;
    p[OUT] = out;
    p[IN] = in;
    PlanLayout.put(p, PlanLayout.put(p, PlanLayout.put(p, LAYOUT.header(), sizes), outStrides), inStrides);
    return p;
  }
}
