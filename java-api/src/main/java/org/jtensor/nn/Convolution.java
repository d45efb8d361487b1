package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.dispatch.plan.ConvShape;
import org.jtensor.dispatch.plan.Windows;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.ConvOps;
import org.jtensor.ops.WindowOps;

/**
 * conv1d/conv2d/conv3d (torch.nn.functional.conv*d) with PyTorch's argument rules and messages.
 * On a device with direct kernels (the CPU) it is one op, ConvOps, whose forward and gradients
 * read the image in place. Otherwise the input's windows become columns
 * (WindowOps.im2col, a native kernel per device) times the weight as a matrix per group (one
 * batched GEMM), plus the bias, and autograd goes through the two: the weight's gradient is a
 * GEMM with the columns, the input's a GEMM then col2im (im2col's adjoint).
 */
final class Convolution {
  private Convolution() {}

  /** padding given per side: before[d] zeros before and after[d] after each spatial dim (they differ only for "same"). */
  static Tensor conv(int nsp, Tensor input, Tensor weight, Tensor bias, long[] strideArg, long[] before, long[] after, long[] dilationArg,
                     long groups) {
    return Autocasting.apply("conv" + nsp + "d", c -> convAs(nsp, c[0], c[1], c[2], strideArg, before, after, dilationArg, groups),
        input, weight, bias);
  }

  private static Tensor convAs(int nsp, Tensor input, Tensor weight, Tensor bias, long[] strideArg, long[] before, long[] after,
                               long[] dilationArg, long groups) {
    String op = "conv" + nsp + "d";
    long[] stride = WindowArgs.expand(op, "stride", strideArg, nsp), dilation = WindowArgs.expand(op, "dilation", dilationArg, nsp);
    long[] padBefore = WindowArgs.expand(op, "padding", before, nsp), padAfter = WindowArgs.expand(op, "padding", after, nsp);
    checkInputRank(op, nsp, input);
    for (int d = 0; d < nsp; d++) {
      if (padBefore[d] < 0 || padAfter[d] < 0) throw new IllegalArgumentException(op + "(): negative padding is not supported");
      checkStepAndDilation(op, stride[d], dilation, d);
    }
    if (groups <= 0) throw new IllegalArgumentException(op + "(): non-positive groups is not supported");
    boolean batched = input.dim() == nsp + 2;
    long[] x = batched ? input.shape() : prepend(1, input.shape());
    long[] w = weight.shape();
    checkWeight(op, nsp, input, x, w, groups);
    if (x[1] != w[1] * groups) {
      throw new IllegalArgumentException(op + "(): Given groups=" + groups + ", weight of size " + WindowArgs.shape(w) + ", expected input"
          + WindowArgs.shape(input.shape()) + " to have " + w[1] * groups + " channels, but got " + x[1] + " channels instead");
    }
    if (bias != null && (bias.dim() != 1 || bias.shape()[0] != w[0])) {
      throw new IllegalArgumentException(op + "(): Given weight of size " + WindowArgs.shape(w) + ", expected bias to be 1-dimensional with "
          + w[0] + " elements, but got bias of size " + WindowArgs.shape(bias.shape()) + " instead");
    }
    checkDtypesAndDevices(op, input, weight, bias);
    long[] in = WindowArgs.spatial(x), kernel = WindowArgs.spatial(w), padded = new long[nsp], reach = new long[nsp], out = new long[nsp];
    boolean tooBig = false;
    for (int d = 0; d < nsp; d++) {
      padded[d] = WindowArgs.padded(op, in[d], padBefore[d], padAfter[d]);
      reach[d] = WindowArgs.reach(op, dilation[d], kernel[d]);
      tooBig |= reach[d] > padded[d];
      out[d] = (padded[d] - reach[d]) / stride[d] + 1;
    }
    if (tooBig) {
      throw new IllegalArgumentException(op + "(): Calculated padded input size per channel: " + WindowArgs.sizes(padded) + ". Kernel size: "
          + WindowArgs.sizes(reach) + ". Kernel size can't be greater than actual input size");
    }
    Shapes.numel(op, prepend(x[0], prepend(w[0], out)));  // the output's and the columns' element counts fit in 64 bits
    WindowArgs.checkColumns(op, x[0], x[1], kernel, out);
    Windows win = new Windows(x[0], x[1], in, out, kernel, stride, padBefore, dilation);
    try (TensorScope s = TensorScope.open()) {
      Tensor image = batched ? input : input.unsqueeze(0);
      if (w[0] > 0 && x[1] > 0 && direct(win, input)) {  // no channels: the composition's empty shapes
        ConvShape shape = new ConvShape(x[0], x[1], w[0], groups, in, kernel, padBefore, padAfter, dilation, stride);
        if (shape.takesDirectInputGradient()) {
          Tensor y = ConvOps.direct(op, image, weight, bias, shape);
          return s.keep(batched ? y : y.squeeze(0));
        }
      }
      long n = x[0], o = w[0], rows = w[1] * win.windowSize(), l = win.positions();
      Tensor columns = pointwise(win) ? image.reshape(n, x[1], l) : WindowOps.im2col(image, win, op);  // [N, C·K, L]
      Tensor y = groups == 1
          ? weight.reshape(o, rows).matmul(columns)  // [O, C·K] @ [N, C·K, L]
          : weight.reshape(groups, o / groups, rows).matmul(columns.view(n, groups, rows, l));  // per group
      Tensor shaped = y.reshape(prepend(n, prepend(o, out)));
      if (bias != null) shaped = shaped.add(bias.reshape(prepend(o, ones(nsp))));
      return s.keep(batched ? shaped : shaped.squeeze(0));
    }
  }

  /**
   * conv_transpose1d/2d/3d (the adjoint of conv*d): input [N, Cin, in...] (or unbatched), weight
   * [Cin, Cout/groups, kernel...]; each input element spreads its weight-scaled kernel into the
   * output: the columns W_gᵀ · x (one GEMM per group) summed into the output by col2im, whose
   * windows are the output's, one per input position. Output size per dim: (in − 1)·stride −
   * 2·padding + dilation·(kernel − 1) + outputPadding + 1.
   */
  static Tensor convTranspose(int nsp, Tensor input, Tensor weight, Tensor bias, long[] strideArg, long[] paddingArg,
                              long[] outputPaddingArg, long groups, long[] dilationArg) {
    return Autocasting.apply("convTranspose" + nsp + "d",
        c -> convTransposeAs(nsp, c[0], c[1], c[2], strideArg, paddingArg, outputPaddingArg, groups, dilationArg), input, weight, bias);
  }

  private static Tensor convTransposeAs(int nsp, Tensor input, Tensor weight, Tensor bias, long[] strideArg, long[] paddingArg,
                                        long[] outputPaddingArg, long groups, long[] dilationArg) {
    String op = "conv_transpose" + nsp + "d";
    long[] stride = WindowArgs.expand(op, "stride", strideArg, nsp), padding = WindowArgs.expand(op, "padding", paddingArg, nsp);
    long[] outPad = WindowArgs.expand(op, "output_padding", outputPaddingArg, nsp), dilation = WindowArgs.expand(op, "dilation", dilationArg, nsp);
    checkInputRank(op, nsp, input);
    for (int d = 0; d < nsp; d++) {
      if (padding[d] < 0) throw new IllegalArgumentException(op + "(): negative padding is not supported");
      if (outPad[d] < 0) throw new IllegalArgumentException(op + "(): negative output_padding is not supported");
      checkStepAndDilation(op, stride[d], dilation, d);
    }
    for (int d = 0; d < nsp; d++) {
      if (outPad[d] >= stride[d] && outPad[d] >= dilation[d]) {
        throw new IllegalArgumentException(op + "(): output padding must be smaller than either stride or dilation, but got output_padding="
            + WindowArgs.shape(outPad) + ", stride=" + WindowArgs.shape(stride) + " and dilation=" + WindowArgs.shape(dilation));
      }
    }
    if (groups <= 0) throw new IllegalArgumentException(op + "(): non-positive groups is not supported");
    boolean batched = input.dim() == nsp + 2;
    long[] x = batched ? input.shape() : prepend(1, input.shape());
    long[] w = weight.shape();
    checkWeight(op, nsp, input, x, w, groups);
    if (x[1] != w[0]) {
      throw new IllegalArgumentException(op + "(): Given transposed=1, weight of size " + WindowArgs.shape(w) + ", expected input"
          + WindowArgs.shape(input.shape()) + " to have " + w[0] + " channels, but got " + x[1] + " channels instead");
    }
    long cout = w[1] * groups;
    if (bias != null && (bias.dim() != 1 || bias.shape()[0] != cout)) {
      throw new IllegalArgumentException(op + "(): Given transposed=1, weight of size " + WindowArgs.shape(w) + ", expected bias to be "
          + "1-dimensional with " + cout + " elements, but got bias of size " + WindowArgs.shape(bias.shape()) + " instead");
    }
    checkDtypesAndDevices(op, input, weight, bias);
    long[] in = WindowArgs.spatial(x), kernel = WindowArgs.spatial(w), out = new long[nsp];
    boolean tooSmall = false;
    for (int d = 0; d < nsp; d++) {
      out[d] = transposedSize(op, in[d], stride[d], padding[d], dilation[d], kernel[d], outPad[d]);
      tooSmall |= out[d] < 1;
    }
    if (tooSmall) {
      throw new IllegalArgumentException(op + "(): Given input size per channel: " + WindowArgs.sizes(in) + ". Calculated output size per "
          + "channel: " + WindowArgs.sizes(out) + ". Output size is too small");
    }
    Shapes.numel(op, prepend(x[0], prepend(cout, out)));  // the output's and the columns' element counts fit in 64 bits
    WindowArgs.checkColumns(op, x[0], cout, kernel, in);
    Windows win = new Windows(x[0], cout, out, in, kernel, stride, padding, dilation);  // the output is the image, one window per input element
    try (TensorScope s = TensorScope.open()) {
      long n = x[0], l = win.positions(), cin = x[1], rows = w[1] * win.windowSize();
      Tensor flat = (batched ? input : input.unsqueeze(0)).reshape(n, groups, cin / groups, l);
      Tensor columns = weight.reshape(groups, cin / groups, rows).transpose(1, 2).matmul(flat).reshape(n, cout * win.windowSize(), l);
      Tensor y = WindowOps.col2im(columns, win, op);
      if (bias != null) y = y.add(bias.reshape(prepend(cout, ones(nsp))));
      return s.keep(batched ? y : y.squeeze(0));
    }
  }

  /**
   * (in − 1)·stride − 2·padding + dilation·(kernel − 1) + outputPadding + 1, refused naming op where a
   * step passes 64 bits (4 · 2^62 + 1 wrapped to a one-element output).
   */
  private static long transposedSize(String op, long in, long stride, long padding, long dilation, long kernel, long outPad) {
    try {
      long v = Math.subtractExact(Math.multiplyExact(in - 1, stride), Math.multiplyExact(2, padding));
      return Math.addExact(Math.addExact(Math.addExact(v, Math.multiplyExact(dilation, kernel - 1)), outPad), 1);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): the output size (input - 1) * stride - 2 * padding + dilation * (kernel_size - 1) + "
          + "output_padding + 1 = (" + in + " - 1) * " + stride + " - 2 * " + padding + " + " + dilation + " * (" + kernel + " - 1) + " + outPad
          + " + 1 overflows 64 bits");
    }
  }

  // ---- the checks convolution and its transpose share, in PyTorch's order and words ----

  /** The input's rank, and no spatial dim of size 0 (PyTorch's rule: only the batch or the channels may be empty). */
  private static void checkInputRank(String op, int nsp, Tensor input) {
    if (input.dim() != nsp + 1 && input.dim() != nsp + 2) {
      throw new IllegalArgumentException("Expected " + (nsp + 1) + "D (unbatched) or " + (nsp + 2) + "D (batched) input to " + op
          + ", but got input of size: " + WindowArgs.shape(input.shape()));
    }
    long[] shape = input.shape();
    for (int d = shape.length - nsp; d < shape.length; d++) {
      if (shape[d] == 0) {
        throw new IllegalArgumentException(op + "(): Only zero batch or zero channel inputs are supported, but got input shape: "
            + WindowArgs.shape(shape));
      }
    }
  }

  private static void checkStepAndDilation(String op, long stride, long[] dilation, int d) {
    if (stride <= 0) throw new IllegalArgumentException(op + "(): non-positive stride is not supported");
    if (dilation[d] <= 0) {
      throw new IllegalArgumentException(op + "(): dilation should be greater than zero, but got " + Arrays.toString(dilation));
    }
  }

  /** The weight's rank (that of the batched input x) and its dim 0 divisible by groups. */
  private static void checkWeight(String op, int nsp, Tensor input, long[] x, long[] w, long groups) {
    if (w.length != nsp + 2) {
      throw new IllegalArgumentException(op + "(): Expected " + w.length + "-dimensional input for " + w.length + "-dimensional weight "
          + WindowArgs.shape(w) + ", but got " + x.length + "-dimensional input of size " + WindowArgs.shape(input.shape()) + " instead");
    }
    if (w[0] < groups) {
      throw new IllegalArgumentException(op + "(): Given groups=" + groups + ", expected weight to be at least " + groups
          + " at dimension 0, but got weight of size " + WindowArgs.shape(w) + " instead");
    }
    for (int d = 2; d < w.length; d++) {
      if (w[d] <= 0) {
        throw new IllegalArgumentException(op + "(): kernel size should be greater than zero, but got weight of size " + WindowArgs.shape(w));
      }
    }
    if (w[0] % groups != 0) {
      throw new IllegalArgumentException(op + "(): Given groups=" + groups + ", expected weight to be divisible by " + groups
          + " at dimension 0, but got weight of size " + WindowArgs.shape(w) + " instead");
    }
  }

  private static void checkDtypesAndDevices(String op, Tensor input, Tensor weight, Tensor bias) {
    if (input.dtype() != weight.dtype() || (bias != null && bias.dtype() != weight.dtype())) {
      throw new IllegalArgumentException(op + "(): expected input, weight and bias of one dtype, got input " + input.dtype() + ", weight "
          + weight.dtype() + (bias == null ? "" : ", bias " + bias.dtype()));
    }
    // jtensor's kernels are floating only. PyTorch 2.13's CPU computes integer conv (slow_conv2d) and
    // int64 conv_transpose, and refuses bool: integers are refused here whatever the kernel, as a
    // gap, not silently computed for some shapes (the 1×1 GEMM shortcut did) and refused for others.
    if (!input.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op + "(): not implemented for " + input.dtype() + " (jtensor convolves floating types only)");
    }
    if (!input.device().equals(weight.device()) || (bias != null && !bias.device().equals(weight.device()))) {
      throw new IllegalArgumentException(op + "(): Expected all tensors to be on the same device, but found input on " + input.device()
          + " and weight on " + weight.device() + (bias == null ? "" : " and bias on " + bias.device()));
    }
  }

  /**
   * Whether the direct kernels (ConvOps) run this convolution: a device with them for the dtype,
   * unless the windows are the image's elements one by one (a 1×1 kernel at stride 1, whose
   * columns are the image itself, so its GEMM copies nothing). Otherwise im2col and a GEMM.
   */
  private static boolean direct(Windows w, Tensor input) {
    if (pointwise(w)) return false;
    return ConvOps.directOn(input);
  }

  /** 1×1 windows that take every element once, in order: the image itself is the columns. */
  private static boolean pointwise(Windows w) {
    for (int d = 0; d < w.spatialDims(); d++) {
      if (w.kernel[d] != 1 || w.stride[d] != 1 || w.padding[d] != 0 || w.outSizes[d] != w.inSizes[d]) return false;
    }
    return true;
  }

  /** PyTorch's padding="same" (stride 1; the odd zero goes after) and "valid" (none), as zeros before and after. */
  static long[][] namedPadding(String op, String padding, long[] weightShape, long[] strideArg, long[] dilationArg, int nsp) {
    long[] before = new long[nsp], after = new long[nsp];
    if (padding.equals("valid")) return new long[][] {before, after};
    if (!padding.equals("same")) {
      throw new IllegalArgumentException(op + "(): Invalid padding string: '" + padding + "' (expected 'same' or 'valid')");
    }
    long[] stride = WindowArgs.expand(op, "stride", strideArg, nsp), dilation = WindowArgs.expand(op, "dilation", dilationArg, nsp);
    for (long v : stride) if (v != 1) throw new IllegalArgumentException(op + "(): padding='same' is not supported for strided convolutions");
    if (weightShape.length != nsp + 2) return new long[][] {before, after};  // conv() names the weight's rank
    for (int d = 0; d < nsp; d++) {
      long total = dilation[d] * (weightShape[2 + d] - 1);
      before[d] = total / 2;
      after[d] = total - before[d];
    }
    return new long[][] {before, after};
  }

  private static long[] prepend(long v, long[] a) {
    long[] r = new long[a.length + 1];
    r[0] = v;
    System.arraycopy(a, 0, r, 1, a.length);
    return r;
  }

  private static long[] ones(int n) {
    long[] r = new long[n];
    java.util.Arrays.fill(r, 1);
    return r;
  }
}
