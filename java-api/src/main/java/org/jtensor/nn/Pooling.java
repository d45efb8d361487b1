package org.jtensor.nn;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.WindowOps;
import org.jtensor.dispatch.Windows;

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
    if (input.dtype() == org.jtensor.DType.BOOL) {
      throw new UnsupportedOperationException(op + "(): \"max_pool\" not implemented for 'Bool'");
    }
    boolean batched = dims == nsp + 2;
    long[] x = batched ? input.shape() : prepend(1, input.shape());
    long[] in = WindowArgs.spatial(x), out = new long[nsp];
    boolean empty = false;
    for (int d = 0; d < nsp; d++) {
      out[d] = outputSize(in[d], kernel[d], padding[d], stride[d], dilation[d], ceilMode);
      empty |= out[d] < 1;
    }
    if (empty) {
      throw new IllegalArgumentException(op + "(): Given input size: " + WindowArgs.sizes(prepend(x[1], in)).replace(" x ", "x")
          + ". Calculated output size: " + WindowArgs.sizes(prepend(x[1], out)).replace(" x ", "x") + ". Output size is too small");
    }
    Windows w = new Windows(x[0], x[1], in, out, kernel, stride, padding, dilation);
    try (TensorScope s = TensorScope.open()) {
      ValuesAndIndices r = WindowOps.maxPool(batched ? input : input.unsqueeze(0), w, op);
      if (batched) return new ValuesAndIndices(s.keep(r.values()), s.keep(r.indices()));
      return new ValuesAndIndices(s.keep(r.values().squeeze(0)), s.keep(r.indices().squeeze(0)));
    }
  }

  /** PyTorch's pooling_output_shape: floor or ceil, a last window that would start in the right padding dropped. */
  static long outputSize(long in, long kernel, long pad, long stride, long dilation, boolean ceil) {
    long span = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceil ? stride - 1 : 0);
    long out = Math.floorDiv(span, stride) + 1;
    if (ceil && (out - 1) * stride >= in + pad) out--;
    return out;
  }

  private static long[] expand(String op, String name, long[] v, int nsp) {
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
