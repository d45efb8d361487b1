package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/** The conv plan (direct convolution; jt/plans.h): the mode, the geometry, one address per operand (0 for none). */
public final class ConvPacker {
  private ConvPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("conv",
      "version", "mode", "dtype", "nsp", "batch", "channels", "out_channels", "groups", "x", "weight", "bias", "y",
      "in_sizes[nsp]", "out_sizes[nsp]", "kernel[nsp]", "pad_before[nsp]", "pad_after[nsp]", "dilation[nsp]", "stride[nsp]");
  /** Modes: y from x, weight and bias; x (the input's gradient) from y (the output's) and weight; weight (its gradient) from x and y. */
  public static final int FORWARD = 0, INPUT_GRAD = 1, WEIGHT_GRAD = 2;
  private static final int MODE = LAYOUT.at("mode"), DTYPE = LAYOUT.at("dtype"), NSP = LAYOUT.at("nsp"), BATCH = LAYOUT.at("batch"),
      CHANNELS = LAYOUT.at("channels"), OUT_CHANNELS = LAYOUT.at("out_channels"), GROUPS = LAYOUT.at("groups");
  /** Where each operand's address goes. */
  public static final int X = LAYOUT.at("x"), WEIGHT = LAYOUT.at("weight"), BIAS = LAYOUT.at("bias"), Y = LAYOUT.at("y");

  /** A plan with every address 0. */
  public static long[] pack(int mode, DType dtype, ConvShape s) {
    long[] p = LAYOUT.allocate(7 * s.spatialDims());
    p[MODE] = mode;
    p[DTYPE] = dtype.code();
    p[NSP] = s.spatialDims();
    p[BATCH] = s.batch();
    p[CHANNELS] = s.channels();
    p[OUT_CHANNELS] = s.outChannels();
    p[GROUPS] = s.groups();
    int at = LAYOUT.header();
    for (long[] a : new long[][] {s.inSizes(), s.outSizes(), s.kernel(), s.padBefore(), s.padAfter(), s.dilation(), s.stride()}) at = PlanLayout.put(p, at, a);
    return p;
  }
}
