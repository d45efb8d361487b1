package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The norm plan (batch, layer and group norm; jt/norm.h): the grouping, the flags and eps, then
 * one address per operand, 0 for an absent one. Every operand is contiguous.
 */
public final class NormPacker {
  private NormPacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("norm",
      "version", "backward", "by_channel", "fixed", "dtype", "n", "c", "s", "groups", "eps",
      "x", "weight", "bias", "mean", "rstd", "y", "grad", "grad_x", "grad_weight", "grad_bias");
  private static final int BACKWARD = LAYOUT.at("backward"), BY_CHANNEL = LAYOUT.at("by_channel"), FIXED = LAYOUT.at("fixed"),
      DTYPE = LAYOUT.at("dtype"), N = LAYOUT.at("n"), C = LAYOUT.at("c"), S = LAYOUT.at("s"), GROUPS = LAYOUT.at("groups"),
      EPS = LAYOUT.at("eps");
  /** Where each operand's address goes. */
  public static final int X = LAYOUT.at("x"), WEIGHT = LAYOUT.at("weight"), BIAS = LAYOUT.at("bias"), MEAN = LAYOUT.at("mean"),
      RSTD = LAYOUT.at("rstd"), Y = LAYOUT.at("y"), GRAD = LAYOUT.at("grad"), GRAD_X = LAYOUT.at("grad_x"),
      GRAD_WEIGHT = LAYOUT.at("grad_weight"), GRAD_BIAS = LAYOUT.at("grad_bias");

  /** A plan with every address 0: the caller sets those of its operands. */
  public static long[] pack(boolean backward, NormGroups g, boolean fixed, DType dtype, double eps) {
    long[] p = LAYOUT.allocate(0);
    p[BACKWARD] = backward ? 1 : 0;
    p[BY_CHANNEL] = g.byChannel() ? 1 : 0;
    p[FIXED] = fixed ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[N] = g.n();
    p[C] = g.c();
    p[S] = g.s();
    p[GROUPS] = g.groups();
    p[EPS] = Double.doubleToRawLongBits(eps);
    return p;
  }
}
