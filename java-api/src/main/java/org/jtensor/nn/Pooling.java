package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;
import org.jtensor.dispatch.plan.Windows;
import org.jtensor.ops.WindowOps;

/**
 * max_pool1d/2d/3d (torch.nn.functional) with PyTorch's argument rules, output sizes (ceil mode
 * included) and messages: one native kernel per device finds each window's maximum and its index;
 * the gradient goes back to those indices.
 */
final class Pooling {
  private Pooling() {}

  /** stride null or empty: the kernel size, as PyTorch's stride=None. */
  static ValuesAndIndices maxPool(int nsp, Tensor input, long[] kernelArg, long[] strideArg, long[] paddingArg, long[] dilationArg,
                                  boolean ceilMode) {
    String op = "max_pool" + nsp + "d";
    long[] kernel = expand(op, "kernel_size", kernelArg, nsp);
    long[] stride = strideArg == null || strideArg.length == 0 ? kernel.clone() : expand(op, "stride", strideArg, nsp);
    long[] padding = expand(op, "padding", paddingArg, nsp), dilation = expand(op, "dilation", dilationArg, nsp);
    Windows w = windows(op, nsp, input, kernel, stride, padding, dilation, ceilMode);
    boolean batched = input.dim() == nsp + 2;
    if (input.dtype() == DType.BOOL) {
      throw ScalarTypes.notImplemented(op, "max_pool", DType.BOOL);
    }
    try (TensorScope s = TensorScope.open()) {
      ValuesAndIndices r = WindowOps.maxPool(batched ? input : input.unsqueeze(0), w, op);
      if (batched) return new ValuesAndIndices(s.keep(r.values()), s.keep(r.indices()));
      return new ValuesAndIndices(s.keep(r.values().squeeze(0)), s.keep(r.indices().squeeze(0)));
    }
  }

  /**
   * avg_pool1d/2d/3d: each window's mean, as im2col (over [N·C, 1, spatial...]) summed down its
   * window and divided by the window's count: clipped to the padded input (countIncludePad) or to
   * the input alone, as PyTorch counts it, or by divisorOverride when given (2-d and 3-d: not 0);
   * differentiable through im2col (whose gradient is col2im).
   */
  static Tensor avgPool(int nsp, Tensor input, long[] kernelArg, long[] strideArg, long[] paddingArg, boolean ceilMode,
                        boolean countIncludePad, Long divisorOverride) {
    String op = "avg_pool" + nsp + "d";
    if (divisorOverride != null && divisorOverride == 0) throw new IllegalArgumentException(op + "(): divisor must be not zero");
    long[] kernel = expand(op, "kernel_size", kernelArg, nsp);
    long[] stride = strideArg == null || strideArg.length == 0 ? kernel.clone() : expand(op, "stride", strideArg, nsp);
    long[] padding = expand(op, "padding", paddingArg, nsp), dilation = new long[nsp];
    java.util.Arrays.fill(dilation, 1);
    Windows shape = windows(op, nsp, input, kernel, stride, padding, dilation, ceilMode);
    if (nsp == 3 && (shape.inSizes[0] < kernel[0] || shape.inSizes[1] < kernel[1] || shape.inSizes[2] < kernel[2])) {
      // PyTorch's pool3d_shape_check for avg_pool3d (not 1d/2d): the input itself, padding aside, must hold the kernel
      throw new IllegalArgumentException(op + "(): input image (T: " + shape.inSizes[0] + " H: " + shape.inSizes[1] + " W: " + shape.inSizes[2]
          + ") smaller than kernel size (kT: " + kernel[0] + " kH: " + kernel[1] + " kW: " + kernel[2] + ")");
    }
    if (!input.dtype().isFloatingPoint()) {
      throw new UnsupportedOperationException(op + "(): expected a floating point input, got " + input.dtype());
    }
    long planes = shape.batch * shape.channels, l = shape.positions();
    if (l > Integer.MAX_VALUE - 8) {  // the divisors are one Java array (an expanded input makes such a plane from a few bytes)
      throw new IllegalArgumentException(op + "(): an output plane of " + l + " positions is more than this implementation supports (2^31)");
    }
    Windows w = new Windows(planes, 1, shape.inSizes, shape.outSizes, kernel, stride, padding, dilation);
    double[] divisor = new double[(int) l];
    for (int pos = 0; pos < l; pos++) {
      long rest = pos, count = 1;
      for (int d = nsp - 1; d >= 0; d--) {
        long o = rest % shape.outSizes[d];
        rest /= shape.outSizes[d];
        long start = o * stride[d] - padding[d], end = Math.min(start + kernel[d], shape.inSizes[d] + padding[d]);
        count *= countIncludePad ? end - start : Math.min(end, shape.inSizes[d]) - Math.max(start, 0);
      }
      divisor[pos] = divisorOverride != null ? divisorOverride : count;
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor x = inMathType(input);
      Tensor planesView = x.reshape(withLeading(planes, 1, shape.inSizes));
      Tensor sums = WindowOps.im2col(planesView, w, op).sum(new int[] {1}, false);  // [N·C, L]
      Tensor counts = Tensor.fromArray(divisor).to(x.dtype()).to(input.device());
      Tensor mean = sums.div(counts);
      // PyTorch adds each quotient to a zeroed output, so a zero sum over a negative divisor is +0.0, not -0.0
      if (divisorOverride != null && divisorOverride < 0) mean = mean.add(0.0);
      mean = mean.reshape(input.dim() == nsp + 2 ? shape.pooledShape() : java.util.Arrays.copyOfRange(shape.pooledShape(), 1, nsp + 2));
      return s.keep(mean.to(input.dtype()));
    }
  }

  /**
   * The windows of a pooling call after PyTorch's checks (input rank, kernel, stride, dilation,
   * padding at most half the kernel, an output of at least one), an unbatched input as batch 1.
   */
  private static Windows windows(String op, int nsp, Tensor input, long[] kernel, long[] stride, long[] padding, long[] dilation,
                                 boolean ceilMode) {
    int dims = input.dim();
    if (dims != nsp + 1 && dims != nsp + 2) {
      throw new IllegalArgumentException(op + "(): non-empty " + (nsp + 1) + "D or " + (nsp + 2) + "D (batch mode) tensor expected for input, "
          + "but got: " + WindowArgs.shape(input.shape()));
    }
    for (int d = 0; d < nsp; d++) {
      if (kernel[d] <= 0) throw new IllegalArgumentException(op + "(): kernel size should be greater than zero, but got " + WindowArgs.shape(kernel));
      if (stride[d] <= 0) throw new IllegalArgumentException(op + "(): stride should be greater than zero, but got " + WindowArgs.shape(stride));
      if (dilation[d] <= 0) {
        throw new IllegalArgumentException(op + "(): dilation should be greater than zero, but got " + WindowArgs.shape(dilation));
      }
      if (padding[d] < 0 || padding[d] > kernel[d] / 2) {
        throw new IllegalArgumentException(op + "(): pad should be at most half of effective kernel size, but got pad=" + padding[d]
            + ", kernel_size=" + kernel[d] + " and dilation=" + dilation[d]);
      }
    }
    long[] x = dims == nsp + 2 ? input.shape() : prepend(1, input.shape());
    long[] in = WindowArgs.spatial(x), out = new long[nsp];
    boolean empty = false;
    for (int d = 0; d < nsp; d++) {
      try {
        out[d] = outputSize(in[d], kernel[d], padding[d], stride[d], dilation[d], ceilMode);
        if (out[d] >= 1) Math.addExact(Math.multiplyExact(out[d] - 1, stride[d]), Math.multiplyExact(kernel[d] - 1, dilation[d]));
      } catch (ArithmeticException e) {  // a wrapped size would send the kernel's windows outside the input
        throw new IllegalArgumentException(op + "(): kernel_size=" + kernel[d] + ", stride=" + stride[d] + ", padding=" + padding[d]
            + " and dilation=" + dilation[d] + " overflow int64 in the windows' positions along dim " + (input.dim() - nsp + d));
      }
      empty |= out[d] < 1;
    }
    if (empty) {
      throw new IllegalArgumentException(op + "(): Given input size: " + WindowArgs.sizes(prepend(x[1], in)).replace(" x ", "x")
          + ". Calculated output size: " + WindowArgs.sizes(prepend(x[1], out)).replace(" x ", "x") + ". Output size is too small");
    }
    return new Windows(x[0], x[1], in, out, kernel, stride, padding, dilation);
  }

  /**
   * adaptive_avg_pool1d/2d: output position o of a dim averages input [floor(o·in/out),
   * ceil((o+1)·in/out)), PyTorch's windows; as the windows are separable, each dim's window sums
   * are gathered (windowSums) and the sum divided once by the window's element count (so
   * autograd, every device and dtype come with it).
   */
  static Tensor adaptiveAvgPool(int nsp, Tensor input, long[] outputArg) {
    String op = "adaptive_avg_pool" + nsp + "d";
    long[] outSize = expand(op, "output_size", outputArg, nsp);
    if (input.dim() != nsp + 1 && input.dim() != nsp + 2) {
      throw new IllegalArgumentException(op + "(): Expected " + (nsp + 1) + "D or " + (nsp + 2) + "D tensor, but got "
          + WindowArgs.shape(input.shape()));
    }
    // adaptive_avg_pool2d (and 1d through it) checks the spatial dims; adaptive_avg_pool3d every dim but the first
    for (int d = nsp == 3 ? 1 : input.dim() - nsp; d < input.dim(); d++) {
      if (input.shape()[d] == 0) {
        throw new IllegalArgumentException(op + "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
            + WindowArgs.shape(input.shape()) + " with dimension " + d + " being empty");
      }
    }
    for (long o : outSize) {
      if (o < 0) throw new IllegalArgumentException(op + "(): elements of output_size must be greater than or equal to 0 but received " + o);
    }
    if (!input.dtype().isFloatingPoint()) {
      throw ScalarTypes.notImplemented(op, op, input.dtype());
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor y = inMathType(input);
      Tensor[] count = {Tensor.full(new long[0], 1.0, y.dtype(), y.device())};
      for (int d = 0; d < nsp; d++) {
        int dim = input.dim() - nsp + d;
        y = windowSums(op, y, dim, input.shape()[dim], outSize[d], count);
      }
      return s.keep(y.div(count[0]).to(input.dtype()).contiguous());
    }
  }

  /**
   * float16 and bfloat16 in float32, as ATen's pooling kernels accumulate and divide in the math type
   * and round once: in the half type the sum rounds per step and a count past 2048 (256 in bfloat16)
   * is not even representable, so a mean came out an ulp or more off.
   */
  private static Tensor inMathType(Tensor x) {
    return x.dtype() == DType.FLOAT16 || x.dtype() == DType.BFLOAT16 ? x.to(DType.FLOAT32) : x;
  }

  /**
   * The sums of dim's adaptive windows (dim becomes out long; count[0] is multiplied by the window sizes): each
   * window's elements gathered by indexSelect, the shorter ones filled up with an appended zero.
   * Not a matmul with an averaging matrix: its 0 · inf made one inf or NaN of the input NaN in
   * every output (PyTorch: only in the windows that hold it).
   */
  private static Tensor windowSums(String op, Tensor y, int dim, long in, long out, Tensor[] count) {
    long widest = out == 0 ? 1 : in % out == 0 ? in / out : in / out + 2;  // at least the widest window; extra slots read the zero
    if (out > (Integer.MAX_VALUE - 8) / widest || in > Long.MAX_VALUE / Math.max(out, 1)) {  // one Java array; (o + 1)·in in 64 bits
      throw new IllegalArgumentException(op + "(): an input of " + in + " positions pooled to " + out + " needs a window index of "
          + "more than 2^31 entries, which this implementation does not support");
    }
    long[] index = new long[(int) (out * widest)];
    double[] length = new double[(int) out];
    for (int o = 0; o < out; o++) {
      long start = Math.floorDiv(o * in, out), end = -Math.floorDiv(-(o + 1) * in, out);
      length[o] = end - start;
      for (int j = 0; j < widest; j++) index[(int) (o * widest + j)] = start + j < end ? start + j : in;  // in: the appended zero
    }
    long[] one = y.shape().clone(), split = new long[y.dim() + 1], at = new long[y.dim()];
    one[dim] = 1;
    java.util.Arrays.fill(at, 1);
    at[dim] = out;
    count[0] = count[0].mul(Tensor.fromArray(length).to(y.dtype()).to(y.device()).reshape(at));
    for (int i = 0, j = 0; i < y.dim(); i++) {
      if (i == dim) {
        split[j++] = out;
        split[j++] = widest;
      } else {
        split[j++] = y.shape()[i];
      }
    }
    if (out > 0 && in % out == 0) return y.reshape(split).sum(new int[] {dim + 1}, false);  // equal disjoint windows: no gather, no copy
    Tensor padded = Tensor.cat(java.util.List.of(y, Tensor.full(one, 0.0, y.dtype(), y.device())), dim);
    return padded.indexSelect(dim, Tensor.fromArray(index).to(y.device())).reshape(split).sum(new int[] {dim + 1}, false);
  }

  private static long[] withLeading(long a, long b, long[] rest) {
    return prepend(a, prepend(b, rest));
  }

  /**
   * PyTorch's pooling_output_shape: floor or ceil, a last window that would start in the right
   * padding dropped; ArithmeticException where a step overflows int64.
   */
  static long outputSize(long in, long kernel, long pad, long stride, long dilation, boolean ceil) {
    long padded = Math.addExact(in, Math.multiplyExact(2, pad));
    long span = Math.addExact(padded - 1 - Math.multiplyExact(dilation, kernel - 1), ceil ? stride - 1 : 0);
    long out = Math.floorDiv(span, stride) + 1;
    if (ceil && Math.multiplyExact(out - 1, stride) >= in + pad) out--;
    return out;
  }

  static long[] expand(String op, String name, long[] v, int nsp) {
    if (v != null && (v.length == 1 || v.length == nsp)) return WindowArgs.expand(op, name, v, nsp);
    throw new IllegalArgumentException(op + "(): " + name + " must either be a single int, or a tuple of " + nsp + " ints, but got "
        + (v == null ? "null" : WindowArgs.shape(v)));
  }

  private static long[] prepend(long v, long[] a) {
    long[] r = new long[a.length + 1];
    r[0] = v;
    System.arraycopy(a, 0, r, 1, a.length);
    return r;
  }
}
