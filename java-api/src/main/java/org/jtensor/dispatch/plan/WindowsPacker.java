package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The windows plan (im2col, fold false; col2im, fold true) and the max_pool plan: both describe the
 * image by its strides and the windows by Windows' numbers (jt/plans.h, jt/windows.h).
 */
public final class WindowsPacker {
  private WindowsPacker() {}

  private static final String[] ARRAYS = {"image_strides[2 + nsp]", "in_sizes[nsp]", "out_sizes[nsp]", "kernel[nsp]",
      "stride[nsp]", "padding[nsp]", "dilation[nsp]"};

  public static final PlanLayout LAYOUT = new PlanLayout("windows",
      concat(new String[] {"version", "fold", "dtype", "nsp", "batch", "channels", "image", "columns", "columns_strides[3]"}, ARRAYS));
  public static final PlanLayout MAX_POOL_LAYOUT = new PlanLayout("max_pool",
      concat(new String[] {"version", "backward", "dtype", "nsp", "batch", "channels", "image", "out", "indices"}, ARRAYS));

  private static final int FOLD = LAYOUT.at("fold"), DTYPE = LAYOUT.at("dtype"), NSP = LAYOUT.at("nsp"), BATCH = LAYOUT.at("batch"),
      CHANNELS = LAYOUT.at("channels"), IMAGE = LAYOUT.at("image"), COLUMNS = LAYOUT.at("columns");
  private static final int P_BACKWARD = MAX_POOL_LAYOUT.at("backward"), P_DTYPE = MAX_POOL_LAYOUT.at("dtype"), P_NSP = MAX_POOL_LAYOUT.at("nsp"), P_BATCH = MAX_POOL_LAYOUT.at("batch"),
      P_CHANNELS = MAX_POOL_LAYOUT.at("channels"), P_IMAGE = MAX_POOL_LAYOUT.at("image"), P_OUT = MAX_POOL_LAYOUT.at("out"),
      P_INDICES = MAX_POOL_LAYOUT.at("indices");

  public static long[] pack(boolean fold, DType dtype, Windows w, long image, long[] imageStrides, long columns, long[] columnsStrides) {
    long[] p = LAYOUT.allocate(3 + arrayWords(w));
    p[FOLD] = fold ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[NSP] = w.spatialDims();
    p[BATCH] = w.batch;
    p[CHANNELS] = w.channels;
    p[IMAGE] = image;
    p[COLUMNS] = columns;
    putArrays(p, PlanLayout.put(p, LAYOUT.header(), columnsStrides), w, imageStrides);
    return p;
  }

  /** backward false: out and indices from image; true: image (the input's gradient) from out (the output's) and indices. */
  public static long[] packMaxPool(boolean backward, DType dtype, Windows w, long image, long[] imageStrides, long out, long indices) {
    long[] p = MAX_POOL_LAYOUT.allocate(arrayWords(w));
    p[P_BACKWARD] = backward ? 1 : 0;
    p[P_DTYPE] = dtype.code();
    p[P_NSP] = w.spatialDims();
    p[P_BATCH] = w.batch;
    p[P_CHANNELS] = w.channels;
    p[P_IMAGE] = image;
    p[P_OUT] = out;
    p[P_INDICES] = indices;
    putArrays(p, MAX_POOL_LAYOUT.header(), w, imageStrides);
    return p;
  }

  private static int arrayWords(Windows w) {
    return 2 + 7 * w.spatialDims();
  }

  private static void putArrays(long[] p, int at, Windows w, long[] imageStrides) {
    for (long[] a : new long[][] {imageStrides, w.inSizes, w.outSizes, w.kernel, w.stride, w.padding, w.dilation}) at = PlanLayout.put(p, at, a);
  }

  private static String[] concat(String[] a, String[] b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
