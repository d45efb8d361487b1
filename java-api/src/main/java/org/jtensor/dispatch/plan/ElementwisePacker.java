package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The elementwise plan: operand 0 is the output; an operand whose address stays 0 is a scalar,
 * carried as its value and the dtype native code converts it to. The caller sets each tensor
 * operand's address with {@link #setAddress} once it holds the operand.
 */
public final class ElementwisePacker {
  private ElementwisePacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("elementwise",
      "version", "op", "dtype", "out_dtype", "nops", "ndim",
      "params[8]", "addresses[nops]", "scalars[2 * nops]", "sizes[ndim]", "strides[nops * ndim]");
  private static final int OP = LAYOUT.at("op"), DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"),
      NOPS = LAYOUT.at("nops"), NDIM = LAYOUT.at("ndim");
  private static final int PARAMS = LAYOUT.header(), ADDRESSES = PARAMS + 8;

  /**
   * Writes scalar operand k into scalars (two words per operand, as the plan's scalars array):
   * its value (a double's raw bits, or an exact long when integral) and the dtype it becomes.
   */
  public static void scalar(long[] scalars, int k, DType dtype, long valueBits, boolean integral) {
    scalars[2 * k] = valueBits;
    scalars[2 * k + 1] = (long) dtype.code() << 1 | (integral ? 1 : 0);
  }

  /**
   * strides[k] is null for a scalar operand k, whose words are in scalars (see {@link #scalar};
   * null when no operand is a scalar); params are up to four doubles, exact their int64 values where
   * the caller has them (null: the doubles truncated).
   */
  public static long[] pack(int kernel, DType dtype, DType outDtype, long[] shape, double[] params, long[] exact,
                            long[][] strides, long[] scalars) {
    int nops = strides.length, ndim = shape.length;
    long[] p = LAYOUT.allocate(8 + nops + 2 * nops + ndim + nops * ndim);
    p[OP] = kernel;
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[NOPS] = nops;
    p[NDIM] = ndim;
    for (int k = 0; k < params.length; k++) {  // each as a double and as an exact long; unused ones stay 0
      p[PARAMS + k] = Double.doubleToRawLongBits(params[k]);
      p[PARAMS + 4 + k] = exact != null ? exact[k] : (long) params[k];
    }
    int w = ADDRESSES + nops;  // addresses are set by the caller
    if (scalars != null) System.arraycopy(scalars, 0, p, w, 2 * nops);
    w = PlanLayout.put(p, w + 2 * nops, shape);
    for (int k = 0; k < nops; k++, w += ndim) {
      if (strides[k] != null) System.arraycopy(strides[k], 0, p, w, ndim);
    }
    return p;
  }

  /** Operand k's data address (0 leaves it a scalar). */
  public static void setAddress(long[] plan, int k, long address) {
    plan[ADDRESSES + k] = address;
  }
}
