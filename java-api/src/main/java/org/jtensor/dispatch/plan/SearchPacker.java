package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The search plan: searchsorted's position of each of n contiguous values in its row of contiguous boundaries. */
public final class SearchPacker {
  private SearchPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("search",
      "version", "dtype", "out_dtype", "right", "n", "inner", "rows", "len", "shared", "out", "in", "bd", "sorter");
  private static final int DTYPE = LAYOUT.at("dtype"), OUT_DTYPE = LAYOUT.at("out_dtype"), RIGHT = LAYOUT.at("right"),
      N = LAYOUT.at("n"), INNER = LAYOUT.at("inner"), ROWS = LAYOUT.at("rows"), LEN = LAYOUT.at("len"),
      SHARED = LAYOUT.at("shared"), OUT = LAYOUT.at("out"), IN = LAYOUT.at("in"), BD = LAYOUT.at("bd"), SORTER = LAYOUT.at("sorter");

  /** sorter 0: none; shared: one row of boundaries for every value. */
  public static long[] pack(DType dtype, DType outDtype, boolean right, long n, long inner, long rows, long len, boolean shared,
                            long out, long in, long bd, long sorter) {
    long[] p = LAYOUT.allocate(0);
    p[DTYPE] = dtype.code();
    p[OUT_DTYPE] = outDtype.code();
    p[RIGHT] = right ? 1 : 0;
    p[N] = n;
    p[INNER] = inner;
    p[ROWS] = rows;
    p[LEN] = len;
    p[SHARED] = shared ? 1 : 0;
    p[OUT] = out;
    p[IN] = in;
    p[BD] = bd;
    p[SORTER] = sorter;
    return p;
  }
}
