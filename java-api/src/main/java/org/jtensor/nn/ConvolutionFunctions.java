package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.functional's linear, convolutions and fold/unfold, called as {@code Functional.conv2d(...)}: a
 * superclass of {@link Functional} (a class's static methods are inherited, so the one namespace stays
 * PyTorch's while each family keeps a file of its own); it has no instances.
 */
public abstract sealed class ConvolutionFunctions extends ActivationFunctions permits PoolingFunctions {
  ConvolutionFunctions() {}

  public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
    return Tensor.linear(input, weight, bias);
  }

  /** 2-D convolution, one stride and padding for both dims, dilation 1, groups 1: conv2d's shorthand. */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, int stride, int padding) {
    return conv2d(input, weight, bias, new long[] {stride}, new long[] {padding}, new long[] {1}, 1);
  }

  /**
   * torch.nn.functional.conv1d: input [N, C, L] (or [C, L]), weight [O, C/groups, k], bias [O] or
   * null; stride, padding and dilation one number for every dim or one per dim.
   */
  public static Tensor conv1d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(1, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /** torch.nn.functional.conv2d: input [N, C, H, W] (or [C, H, W]), weight [O, C/groups, kH, kW]. */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(2, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /** torch.nn.functional.conv3d: input [N, C, D, H, W] (or [C, D, H, W]), weight [O, C/groups, kD, kH, kW]. */
  public static Tensor conv3d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(3, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /**
   * torch.nn.functional.conv_transpose1d (torch's argument order): input [N, Cin, L] (or [Cin, L]),
   * weight [Cin, Cout/groups, k]; outputPadding adds to one side of the output, below stride or dilation.
   */
  public static Tensor convTranspose1d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(1, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** torch.nn.functional.conv_transpose2d: input [N, Cin, H, W] (or unbatched), weight [Cin, Cout/groups, kH, kW]. */
  public static Tensor convTranspose2d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(2, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** torch.nn.functional.conv_transpose3d: input [N, Cin, D, H, W] (or unbatched), weight [Cin, Cout/groups, kD, kH, kW]. */
  public static Tensor convTranspose3d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(3, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** conv1d with padding "same" (the output as long as the input; stride 1) or "valid" (none). */
  public static Tensor conv1d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(1, input, weight, bias, stride, padding, dilation, groups);
  }

  /** conv2d with padding "same" or "valid". */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(2, input, weight, bias, stride, padding, dilation, groups);
  }

  /** conv3d with padding "same" or "valid". */
  public static Tensor conv3d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(3, input, weight, bias, stride, padding, dilation, groups);
  }

  private static Tensor namedPadding(int nsp, Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation,
                                     long groups) {
    long[][] p = Convolution.namedPadding("conv" + nsp + "d", padding, weight.shape(), stride, dilation, nsp);
    return Convolution.conv(nsp, input, weight, bias, stride, p[0], p[1], dilation, groups);
  }

  /**
   * torch.nn.functional.unfold (im2col): input [N, C, H, W] to [N, C·kH·kW, L], each column one
   * window (L windows); kernelSize, dilation, padding, stride one number or two.
   */
  public static Tensor unfold(Tensor input, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
    return Folding.unfold(input, kernelSize, dilation, padding, stride);
  }

  /** torch.nn.functional.fold (col2im): [N, C·kH·kW, L] back to [N, C, outputSize], overlapping entries summed. */
  public static Tensor fold(Tensor input, long[] outputSize, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
    return Folding.fold(input, outputSize, kernelSize, dilation, padding, stride);
  }
}
