package org.jtensor.dispatch.plan;

import org.jtensor.DType;

/**
 * The grid_sample plan (jt/plans.h): the mode, padding and geometry, then one address per
 * operand, 0 for an absent one. Every operand is contiguous: input [n, c, (d,) h, w], grid
 * [n, (outD,) outH, outW, nsp], out and gradOut [n, c, (outD,) outH, outW].
 */
public final class GridSamplePacker {
  private GridSamplePacker() {}

  public static final PlanLayout LAYOUT = new PlanLayout("grid_sample",
      "version", "backward", "dtype", "mode", "padding", "align_corners", "nsp", "n", "c", "in_d", "in_h", "in_w",
      "out_d", "out_h", "out_w", "input", "grid", "out", "grad_out", "grad_input", "grad_grid");
  private static final int BACKWARD = LAYOUT.at("backward"), DTYPE = LAYOUT.at("dtype"), MODE = LAYOUT.at("mode"),
      PADDING = LAYOUT.at("padding"), ALIGN = LAYOUT.at("align_corners"), NSP = LAYOUT.at("nsp"), N = LAYOUT.at("n"), C = LAYOUT.at("c"),
      IN_D = LAYOUT.at("in_d"), OUT_D = LAYOUT.at("out_d");
  /** Where each operand's address goes. */
  public static final int INPUT = LAYOUT.at("input"), GRID = LAYOUT.at("grid"), OUT = LAYOUT.at("out"), GRAD_OUT = LAYOUT.at("grad_out"),
      GRAD_INPUT = LAYOUT.at("grad_input"), GRAD_GRID = LAYOUT.at("grad_grid");

  /**
   * The sampling: mode 0 bilinear (trilinear in 3-D), 1 nearest, 2 bicubic (2-D); padding 0 zeros,
   * 1 border, 2 reflection (PyTorch's GridSamplerInterpolation and GridSamplerPadding codes); the
   * input's shape and the output's spatial sizes (2 or 3 of them).
   */
  public record Sampling(int mode, int padding, boolean alignCorners, long[] inputShape, long[] outSizes) {
    public long[] gridShape() {
      long[] g = new long[outSizes.length + 2];
      g[0] = inputShape[0];
      System.arraycopy(outSizes, 0, g, 1, outSizes.length);
      g[g.length - 1] = outSizes.length;
      return g;
    }

    public long[] outputShape() {
      long[] o = new long[outSizes.length + 2];
      o[0] = inputShape[0];
      o[1] = inputShape[1];
      System.arraycopy(outSizes, 0, o, 2, outSizes.length);
      return o;
    }
  }

  /** A plan with every address 0: the caller sets those of its operands. */
  public static long[] pack(boolean backward, DType dtype, Sampling s) {
    long[] p = LAYOUT.allocate(0), in = s.inputShape(), out = s.outSizes();
    int nsp = out.length;
    p[BACKWARD] = backward ? 1 : 0;
    p[DTYPE] = dtype.code();
    p[MODE] = s.mode();
    p[PADDING] = s.padding();
    p[ALIGN] = s.alignCorners() ? 1 : 0;
    p[NSP] = nsp;
    p[N] = in[0];
    p[C] = in[1];
    for (int k = 0; k < 3; k++) {  // d, h, w; depth 1 in 2-D
      p[IN_D + k] = k + nsp >= 3 ? in[2 + k + nsp - 3] : 1;
      p[OUT_D + k] = k + nsp >= 3 ? out[k + nsp - 3] : 1;
    }
    return p;
  }
}
