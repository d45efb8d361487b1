package org.jtensor.nn;

import java.util.Arrays;
import java.util.List;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.functional.pad: pad holds (before, after) pairs from the last dim backwards. "constant"
 * fills with value (a negative pad crops); "reflect" mirrors without repeating the edge,
 * "replicate" repeats it, "circular" wraps around: those three gather the input along each dim by
 * an index vector, so the gradient is indexSelect's.
 */
final class Padding {
  private Padding() {}

  static Tensor pad(Tensor x, long[] pad, String mode, double value) {
    String op = "pad";
    if (pad.length % 2 != 0) throw new IllegalArgumentException(op + "(): Padding length must be divisible by 2");
    if (pad.length / 2 > x.dim()) {
      throw new IllegalArgumentException(op + "(): Padding length should be less than or equal to two times the input dimension but got "
          + "padding length " + pad.length + " and input of dimension " + x.dim());
    }
    if (!List.of("constant", "reflect", "replicate", "circular").contains(mode)) {
      throw new IllegalArgumentException(op + "(): Unrecognised padding mode " + mode);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = x;
      for (int k = 0; k < pad.length / 2; k++) {
        int d = x.dim() - 1 - k;
        long before = pad[2 * k], after = pad[2 * k + 1];
        r = mode.equals("constant") ? constant(r, d, before, after, value) : gather(op, r, d, before, after, mode);
      }
      return s.keep(r == x ? x.clone() : r);
    }
  }

  private static Tensor constant(Tensor x, int d, long before, long after, double value) {
    long n = x.shape()[d];
    if (before < 0 || after < 0) {  // crop first
      long from = Math.max(0, -before), to = n - Math.max(0, -after);
      if (to < from) throw new IllegalArgumentException("pad(): the negative padding crops dim " + d + " below size 0");
      x = x.narrow(d, from, to - from);
    }
    Tensor r = x;
    if (before > 0) r = Tensor.cat(List.of(block(x, d, before, value), r), d);
    if (after > 0) r = Tensor.cat(List.of(r, block(x, d, after, value)), d);
    return r;
  }

  private static Tensor block(Tensor x, int d, long length, double value) {
    long[] shape = x.shape().clone();
    shape[d] = length;
    return Tensor.full(shape, value, x.dtype(), x.device());
  }

  private static Tensor gather(String op, Tensor x, int d, long before, long after, String mode) {
    long n = x.shape()[d];
    if (before < 0 || after < 0) throw new IllegalArgumentException(op + "(): negative padding is only supported in constant mode");
    if (mode.equals("reflect") && (before >= n || after >= n)) {
      throw new IllegalArgumentException(op + "(): Padding size should be less than the corresponding input dimension, but got: padding ("
          + before + ", " + after + ") at dimension " + d + " of input " + Arrays.toString(x.shape()));
    }
    if (mode.equals("circular") && (before > n || after > n)) {
      throw new IllegalArgumentException(op + "(): Padding value causes wrapping around more than once.");
    }
    if (n == 0) throw new IllegalArgumentException(op + "(): dim " + d + " is empty: there is nothing to " + mode);
    long[] idx = new long[(int) (n + before + after)];
    for (int i = 0; i < idx.length; i++) {
      long j = i - before;
      idx[i] = switch (mode) {
        case "reflect" -> j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
        case "replicate" -> Math.max(0, Math.min(n - 1, j));
        default -> Math.floorMod(j, n);  // circular
      };
    }
    return x.indexSelect(d, Tensor.fromArray(idx).to(x.device()));
  }
}
