package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.Upsample: {@link Functional#interpolate} to a size or by a scale factor (one value or
 * one per spatial dim), mode "nearest" by default; alignCorners null is PyTorch's None (false for
 * the interpolating modes, and the only value the others take).
 */
public final class Upsample extends Module {
  private final long[] size;
  private final double[] scaleFactor;
  private final String mode;
  private final boolean alignCorners;

  /** Upsample(size=size, mode=mode, align_corners=alignCorners). */
  public Upsample(long[] size, String mode, Boolean alignCorners) {
    this(size, null, mode, alignCorners);
  }

  /** Upsample(scale_factor=scaleFactor, mode=mode, align_corners=alignCorners). */
  public Upsample(double[] scaleFactor, String mode, Boolean alignCorners) {
    this(null, scaleFactor, mode, alignCorners);
  }

  /** Upsample(scale_factor=scaleFactor): nearest. */
  public Upsample(double scaleFactor) {
    this(null, new double[] {scaleFactor}, "nearest", null);
  }

  private Upsample(long[] size, double[] scaleFactor, String mode, Boolean alignCorners) {
    if ((size == null) == (scaleFactor == null)) throw new IllegalArgumentException("Upsample(): either size or scale_factor should be defined");
    this.size = size == null ? null : size.clone();
    this.scaleFactor = scaleFactor == null ? null : scaleFactor.clone();
    this.mode = mode;
    this.alignCorners = alignCorners != null && alignCorners;
  }

  @Override
  public Tensor forward(Tensor input) {
    return size != null ? Functional.interpolate(input, size, mode, alignCorners) : Functional.interpolate(input, scaleFactor, mode, alignCorners);
  }

  @Override
  protected String extraRepr() {
    return (scaleFactor != null ? "scale_factor=" + ModuleRepr.given(scaleFactor) : "size=" + ModuleRepr.given(size)) + ", mode='" + mode + "'";
  }
}
