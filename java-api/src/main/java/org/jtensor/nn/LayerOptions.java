package org.jtensor.nn;

import java.util.Arrays;

/**
 * The keyword arguments of PyTorch's convolution and pooling modules, as one immutable value every
 * such module takes: {@code new Conv2d(3, 16, 3, LayerOptions.of().stride(2).padding(1).bias(false), g)}.
 * Each module reads the options that apply to it (a convolution: stride, padding, dilation, groups,
 * bias; max pooling: stride, padding, dilation, ceilMode; average pooling: stride, padding,
 * ceilMode, countIncludePad, divisorOverride for 2-d and 3-d) with PyTorch's defaults; stride null means the kernel size for pooling.
 */
public final class LayerOptions {
  final long[] stride, padding, dilation;
  final String paddingMode;  // "same" or "valid", else null (numeric padding)
  final long groups;
  final boolean bias, ceilMode, countIncludePad;
  final Long divisorOverride;  // average pooling's divisor_override, or null

  private LayerOptions(long[] stride, long[] padding, String paddingMode, long[] dilation, long groups, boolean bias, boolean ceilMode,
                       boolean countIncludePad, Long divisorOverride) {
    this.stride = stride;
    this.padding = padding;
    this.paddingMode = paddingMode;
    this.dilation = dilation;
    this.groups = groups;
    this.bias = bias;
    this.ceilMode = ceilMode;
    this.countIncludePad = countIncludePad;
    this.divisorOverride = divisorOverride;
  }

  /** PyTorch's defaults: stride 1 (pooling: the kernel), padding 0, dilation 1, groups 1, bias, no ceil mode, padding counted. */
  public static LayerOptions of() {
    return new LayerOptions(null, new long[] {0}, null, new long[] {1}, 1, true, false, true, null);
  }

  public LayerOptions stride(long... v) {
    return new LayerOptions(v.clone(), padding, paddingMode, dilation, groups, bias, ceilMode, countIncludePad, divisorOverride);
  }

  public LayerOptions padding(long... v) {
    return new LayerOptions(stride, v.clone(), null, dilation, groups, bias, ceilMode, countIncludePad, divisorOverride);
  }

  /** padding="same" or "valid" (convolutions). */
  public LayerOptions padding(String mode) {
    return new LayerOptions(stride, padding, mode, dilation, groups, bias, ceilMode, countIncludePad, divisorOverride);
  }

  public LayerOptions dilation(long... v) {
    return new LayerOptions(stride, padding, paddingMode, v.clone(), groups, bias, ceilMode, countIncludePad, divisorOverride);
  }

  public LayerOptions groups(long v) {
    return new LayerOptions(stride, padding, paddingMode, dilation, v, bias, ceilMode, countIncludePad, divisorOverride);
  }

  public LayerOptions bias(boolean v) {
    return new LayerOptions(stride, padding, paddingMode, dilation, groups, v, ceilMode, countIncludePad, divisorOverride);
  }

  public LayerOptions ceilMode(boolean v) {
    return new LayerOptions(stride, padding, paddingMode, dilation, groups, bias, v, countIncludePad, divisorOverride);
  }

  public LayerOptions countIncludePad(boolean v) {
    return new LayerOptions(stride, padding, paddingMode, dilation, groups, bias, ceilMode, v, divisorOverride);
  }

  /** avg_pool2d/3d's divisor_override: every window's sum is divided by v instead of its count (v ≠ 0). */
  public LayerOptions divisorOverride(long v) {
    return new LayerOptions(stride, padding, paddingMode, dilation, groups, bias, ceilMode, countIncludePad, v);
  }

  /** A convolution's stride: 1 unless given. */
  long[] convStride() {
    return stride == null ? new long[] {1} : stride;
  }

  @Override
  public String toString() {
    return "LayerOptions(stride=" + (stride == null ? "None" : Arrays.toString(stride)) + ", padding="
        + (paddingMode != null ? "'" + paddingMode + "'" : Arrays.toString(padding)) + ", dilation=" + Arrays.toString(dilation) + ", groups="
        + groups + ", bias=" + bias + ", ceil_mode=" + ceilMode + ", count_include_pad=" + countIncludePad
        + (divisorOverride != null ? ", divisor_override=" + divisorOverride : "") + ")";
  }
}
