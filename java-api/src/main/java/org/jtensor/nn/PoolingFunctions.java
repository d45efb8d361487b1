package org.jtensor.nn;

import org.jtensor.Tensor;
import org.jtensor.ValuesAndIndices;

/**
 * torch.nn.functional's pooling (max, average, power-average, adaptive) and max unpooling, called as
 * {@code Functional.maxPool2d(...)}: a superclass of {@link Functional}, as {@link ConvolutionFunctions} is.
 */
public abstract sealed class PoolingFunctions extends ConvolutionFunctions permits LossFunctions {
  PoolingFunctions() {}

  /** Max over kernel×kernel windows with stride kernel (torch.nn.functional.max_pool2d). */
  public static Tensor maxPool2d(Tensor input, int kernel) {
    return maxPool2d(input, kernel, kernel);
  }

  public static Tensor maxPool2d(Tensor input, int kernel, int stride) {
    return maxPool2d(input, new long[] {kernel}, new long[] {stride}, new long[] {0}, new long[] {1}, false);
  }

  /** torch.nn.functional.max_pool1d: input [N, C, L] or [C, L]; stride null: the kernel size. */
  public static Tensor maxPool1d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(1, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** torch.nn.functional.max_pool2d: input [N, C, H, W] or [C, H, W]; stride null: the kernel size. */
  public static Tensor maxPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(2, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** torch.nn.functional.max_pool3d: input [N, C, D, H, W] or [C, D, H, W]; stride null: the kernel size. */
  public static Tensor maxPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(3, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** max_pool1d(..., return_indices=True): the maxima and each one's position in its input line. */
  public static ValuesAndIndices maxPool1dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(1, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** max_pool3d(..., return_indices=True): the maxima and each one's position in its input volume (D·H·W row-major). */
  public static ValuesAndIndices maxPool3dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(3, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** max_pool2d(..., return_indices=True): the maxima and each one's position in its input plane (H·W row-major). */
  public static ValuesAndIndices maxPool2dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(2, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** torch.nn.functional.max_unpool1d: maxPool1dWithIndices's values back at their indices in zeros; outputSize null: PyTorch's default size. */
  public static Tensor maxUnpool1d(Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
    return MaxUnpooling.maxUnpool(1, input, indices, kernelSize, stride, padding, outputSize);
  }

  /** torch.nn.functional.max_unpool2d: maxPool2dWithIndices's values back at their (H·W row-major) indices in zeros. */
  public static Tensor maxUnpool2d(Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
    return MaxUnpooling.maxUnpool(2, input, indices, kernelSize, stride, padding, outputSize);
  }

  private static Tensor valuesOnly(ValuesAndIndices r) {
    r.indices().close();
    return r.values();
  }

  /** Mean over kernel×kernel windows with stride kernel (torch.nn.functional.avg_pool2d, no padding): avgPool2d's shorthand. */
  public static Tensor avgPool2d(Tensor input, int kernel) {
    return avgPool2d(input, new long[] {kernel}, null, new long[] {0}, false, true);
  }

  /** torch.nn.functional.avg_pool1d: input [N, C, L] or [C, L]; stride null: the kernel size. */
  public static Tensor avgPool1d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(1, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  /** torch.nn.functional.avg_pool2d: input [N, C, H, W] or [C, H, W]; countIncludePad: padding zeros count in each mean. */
  public static Tensor avgPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(2, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  /** avg_pool2d with divisor_override: each window's sum divided by divisorOverride (not 0) instead of its count. */
  public static Tensor avgPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad,
                                 long divisorOverride) {
    return Pooling.avgPool(2, input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
  }

  /** torch.nn.functional.avg_pool3d: input [N, C, D, H, W] or [C, D, H, W]. */
  public static Tensor avgPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(3, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  public static Tensor avgPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad,
                                 long divisorOverride) {
    return Pooling.avgPool(3, input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
  }

  /** torch.nn.functional.lp_pool1d: (Σ_window x^p)^(1/p) over [N, C, L] (or [C, L]), no padding; stride null: the kernel. */
  public static Tensor lpPool1d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    return LpPooling.lpPool(1, input, normType, kernelSize, stride, ceilMode);
  }

  /** torch.nn.functional.lp_pool2d: (Σ_window x^p)^(1/p) over [N, C, H, W] (or [C, H, W]); kernel and stride one number or two. */
  public static Tensor lpPool2d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    return LpPooling.lpPool(2, input, normType, kernelSize, stride, ceilMode);
  }

  /** torch.nn.functional.adaptive_avg_pool1d: [N, C, L] (or [C, L]) to outputSize positions, PyTorch's windows. */
  public static Tensor adaptiveAvgPool1d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(1, input, outputSize);
  }

  /** torch.nn.functional.adaptive_avg_pool2d: [N, C, H, W] (or [C, H, W]) to outputSize (one number or two). */
  public static Tensor adaptiveAvgPool2d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(2, input, outputSize);
  }

  public static Tensor adaptiveAvgPool3d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(3, input, outputSize);
  }

  /** torch.nn.functional.adaptive_max_pool1d/2d/3d: [N, C, *spatial] (or [C, *spatial]) to outputSize; WithIndices adds each maximum's row-major spatial position. */
  public static Tensor adaptiveMaxPool1d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(1, input, outputSize));
  }

  public static Tensor adaptiveMaxPool2d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(2, input, outputSize));
  }

  public static Tensor adaptiveMaxPool3d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(3, input, outputSize));
  }

  public static ValuesAndIndices adaptiveMaxPool1dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(1, input, outputSize);
  }

  public static ValuesAndIndices adaptiveMaxPool2dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(2, input, outputSize);
  }

  public static ValuesAndIndices adaptiveMaxPool3dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(3, input, outputSize);
  }
}
