package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.core.Shapes;

/**
 * The per-spatial-dim arguments of convolution and pooling as PyTorch reads them: one number for
 * every dim, or one per dim; and their shapes in PyTorch's messages ("(2 x 2)", "[1, 2]").
 */
final class WindowArgs {
  private WindowArgs() {}

  /** v expanded to nsp numbers (one number stands for every dim), else PyTorch's refusal naming op and the argument. */
  static long[] expand(String op, String name, long[] v, int nsp) {
    if (v != null && v.length == nsp) return v.clone();
    if (v != null && v.length == 1) {
      long[] r = new long[nsp];
      Arrays.fill(r, v[0]);
      return r;
    }
    throw new IllegalArgumentException(op + "(): expected " + name + " to be a single integer value or a list of " + nsp
        + " values to match the convolution dimensions, but got " + name + "=" + (v == null ? "null" : Arrays.toString(v)));
  }

  /** "(2 x 2)": PyTorch's spelling of per-channel sizes. */
  static String sizes(long[] v) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < v.length; i++) b.append(i == 0 ? "" : " x ").append(v[i]);
    return b.append(')').toString();
  }

  static String shape(long[] v) {
    return Arrays.toString(v);
  }

  /** in + before + after: the padded input size, refused naming op where it passes 2^63 - 1 (it wrapped to a small size). */
  static long padded(String op, long in, long before, long after) {
    try {
      return Math.addExact(Math.addExact(in, before), after);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): the padded input size " + in + " + " + before + " + " + after + " overflows 64 bits");
    }
  }

  /** dilation · (kernel − 1) + 1: the extent of a dilated kernel, refused naming op where it passes 2^63 - 1 (2^62 · 4 + 1 wrapped to 1). */
  static long reach(String op, long dilation, long kernel) {
    try {
      return Math.addExact(Math.multiplyExact(dilation, kernel - 1), 1);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): the dilated kernel size dilation * (kernel_size - 1) + 1 = " + dilation + " * (" + kernel
          + " - 1) + 1 overflows 64 bits");
    }
  }

  /**
   * The columns of windows over an image [batch, channels, ...] (batch · channels · kernel... ·
   * blocks... elements, an empty batch or no channels counted as one) fit a 64-bit count, else
   * refused naming op.
   */
  static void checkColumns(String op, long batch, long channels, long[] kernel, long[] blocks) {
    long[] all = new long[2 + kernel.length + blocks.length];
    all[0] = Math.max(batch, 1);
    all[1] = Math.max(channels, 1);
    System.arraycopy(kernel, 0, all, 2, kernel.length);
    System.arraycopy(blocks, 0, all, 2 + kernel.length, blocks.length);
    Shapes.numel(op, all);
  }

  /** The spatial sizes of a batched shape [N, C, spatial...]. */
  static long[] spatial(long[] batched) {
    return Arrays.copyOfRange(batched, 2, batched.length);
  }
}
