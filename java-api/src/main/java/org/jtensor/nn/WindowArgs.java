package org.jtensor.nn;

import java.util.Arrays;

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

  /** The spatial sizes of a batched shape [N, C, spatial...]. */
  static long[] spatial(long[] batched) {
    return Arrays.copyOfRange(batched, 2, batched.length);
  }
}
