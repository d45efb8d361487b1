package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The reduce plan: out (and values, for arg reductions) over in's dims, 1 where reduced. */
public final class ReducePacker {
  private ReducePacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("reduce",
      "version", "op", "dtype", "out_dtype", "ndim", "out", "in", "values", "divisor",
      "sizes[ndim]", "out_strides[ndim]", "in_strides[ndim]", "reduced[ndim]");
  private static final int OP = LAYOUT.at("op"), DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"),
      NDIM = LAYOUT.at("ndim"), OUT = LAYOUT.at("out"), IN = LAYOUT.at("in"), VALUES = LAYOUT.at("values"),
      DIVISOR = LAYOUT.at("divisor");

  /** values is 0 unless the op writes indices and values; divisor divides floating sums (mean: the count; 1: none). */
  public static long[] pack(int kernel, DType dtype, DType outDtype, long out, long in, long values, double divisor,
                            long[] sizes, long[] outStrides, long[] inStrides, boolean[] reduced) {
    int n = sizes.length;
    long[] p = LAYOUT.allocate(4 * n);
    p[OP] = kernel;
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[NDIM] = n;
    p[OUT] = out;
    p[IN] = in;
    p[VALUES] = values;
    p[DIVISOR] = Double.doubleToRawLongBits(divisor);
    int w = PlanLayout.put(p, LAYOUT.header(), sizes);
    w = PlanLayout.put(p, w, outStrides);
    w = PlanLayout.put(p, w, inStrides);
    for (int d = 0; d < n; d++) p[w + d] = reduced[d] ? 1 : 0;
    return p;
  }
}
