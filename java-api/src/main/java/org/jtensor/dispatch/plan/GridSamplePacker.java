package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The grid_sample plan (jt/plans.h): the mode, padding and geometry, then one address per
 * operand, 0 for an absent one. Every operand is contiguous: input [n, c, inH, inW], grid
 * [n, outH, outW, 2], out and gradOut [n, c, outH, outW].
 */
public final class GridSamplePacker {
  private GridSamplePacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("grid_sample",
      "version", "backward", "dtype", "mode", "padding", "align_corners", "n", "c", "in_h", "in_w", "out_h", "out_w",
      "input", "grid", "out", "grad_out", "grad_input", "grad_grid");
  private static final int BACKWARD = LAYOUT.at("backward"), DTYPE = LAYOUT.at("dtype"), MODE = LAYOUT.at("mode"),
      PADDING = LAYOUT.at("padding"), ALIGN = LAYOUT.at("align_corners"), N = LAYOUT.at("n"), C = LAYOUT.at("c"),
      IN_H = LAYOUT.at("in_h"), IN_W = LAYOUT.at("in_w"), OUT_H = LAYOUT.at("out_h"), OUT_W = LAYOUT.at("out_w");
  /** Where each operand's address goes. */
  public static final int INPUT = LAYOUT.at("input"), GRID = LAYOUT.at("grid"), OUT = LAYOUT.at("out"), GRAD_OUT = LAYOUT.at("grad_out"),
      GRAD_INPUT = LAYOUT.at("grad_input"), GRAD_GRID = LAYOUT.at("grad_grid");

  /**
   * The sampling: mode 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection
   * (PyTorch's GridSamplerInterpolation and GridSamplerPadding codes); shapes as the class says.
   */
  public record Sampling(int mode, int padding, boolean alignCorners, long[] inputShape, long outH, long outW) {
    public long[] gridShape() {
      return new long[] {inputShape[0], outH, outW, 2};
    }

    public long[] outputShape() {
      return new long[] {inputShape[0], inputShape[1], outH, outW};
    }
  }

  /** A plan with every address 0: the caller sets those of its operands. */
  public static long[] pack(boolean backward, DType dtype, Sampling s) {
    long[] p = LAYOUT.allocate(0);
    p[BACKWARD] = backward ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[MODE] = s.mode();
    p[PADDING] = s.padding();
    p[ALIGN] = s.alignCorners() ? 1 : 0;
    p[N] = s.inputShape()[0];
    p[C] = s.inputShape()[1];
    p[IN_H] = s.inputShape()[2];
    p[IN_W] = s.inputShape()[3];
    p[OUT_H] = s.outH();
    p[OUT_W] = s.outW();
    return p;
  }
}
