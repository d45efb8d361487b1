package org.jtensor.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.nn.functional.pad: pad holds (before, after) pairs from the last dim backwards. "constant"
 * fills with value (a negative pad crops); "reflect" mirrors without repeating the edge,
 * "replicate" repeats it (a negative pad crops the mirrored or repeated range, as PyTorch's
 * kernels), "circular" wraps around (a negative pad crops first, as PyTorch's _pad_circular):
 * those three concatenate views of the input along each dim (narrow, flip,
 * expand), so nothing the size of the pad is built on the Java heap and the gradient is theirs.
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
    if (!mode.equals("constant")) {  // PyTorch's _pad_enum: the reflection/replication/circular kernels it has, and no fill value
      if (!(value == 0)) throw new IllegalArgumentException(op + "(): Padding mode \"" + mode + "\" doesn't take in value argument");
      int p = pad.length / 2, dims = x.dim();
      if (p < 1 || p > 3 || (dims != p + 1 && dims != p + 2)) {
        throw new UnsupportedOperationException(op + "(): Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
      }
      // PyTorch's reflection/replication shape checks: only a batch dim may be empty (circular takes any)
      for (int d = dims == p + 2 ? 1 : 0; d < dims && !mode.equals("circular"); d++) {
        if (x.shape()[d] == 0) {
          throw new IllegalArgumentException(op + "(): Expected " + (p + 1) + "D or " + (p + 2) + "D (batch mode) tensor with possibly 0 batch size "
              + "and other non-zero dimensions for input, but got: " + Arrays.toString(x.shape()));
        }
      }
    }
    if (mode.equals("constant") && Arrays.stream(pad).anyMatch(p -> p > 0)) {
      // PyTorch fills the output (fill_) only where a pad is positive; value is a Python float
      // there, so -1 does not wrap into uint8 (checkScalar let it through to full(), refused there)
      x.dtype().checkFits(op, value);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = x;
      for (int k = 0; k < pad.length / 2; k++) {
        int d = x.dim() - 1 - k;
        long before = pad[2 * k], after = pad[2 * k + 1], n = r.shape()[d];
        try {
          Math.addExact(Math.addExact(n, before), after);
        } catch (ArithmeticException e) {
          throw new IllegalArgumentException(op + "(): the padded size " + n + " + " + before + " + " + after + " of dim " + d + " overflows 64 bits");
        }
        r = mode.equals("constant") ? constant(r, d, before, after, value) : concatenate(op, r, d, before, after, mode);
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

  /**
   * reflect/replicate along d: output element j is the input's at virtual index v = j - before,
   * v in [-before, n + after), mirrored (reflect) or clamped (replicate) into [0, n); a negative pad
   * crops, as PyTorch's kernels index. Three pieces: v below 0, inside [0, n), at n or past it.
   */
  private static Tensor concatenate(String op, Tensor x, int d, long before, long after, String mode) {
    long n = x.shape()[d];
    if (mode.equals("circular")) return circular(op, x, d, before, after);
    boolean reflect = mode.equals("reflect");
    if (reflect && (before >= n || after >= n)) {
      throw new IllegalArgumentException(op + "(): Padding size should be less than the corresponding input dimension, but got: padding ("
          + before + ", " + after + ") at dimension " + d + " of input " + Arrays.toString(x.shape()));
    }
    if (n == 0) throw new IllegalArgumentException(op + "(): dim " + d + " is empty: there is nothing to " + mode);
    long end = n + after;  // the virtual range [-before, end)
    if (end + before < 1) {
      String axis = "WHD".substring(x.dim() - 1 - d, x.dim() - d);
      throw new IllegalArgumentException(op + "(): input (" + axis + ": " + n + ") is too small. Calculated output " + axis + ": "
          + (end + before));
    }
    long headTo = Math.min(0, end), bodyFrom = Math.max(0, -before), bodyTo = Math.min(n, end), tailFrom = Math.max(n, -before);
    List<Tensor> pieces = new ArrayList<>(3);
    if (headTo > -before) {  // v in [-before, headTo): x[-v] mirrored, or x[0]
      long count = headTo + before;
      pieces.add(reflect ? x.narrow(d, 1 - headTo, count).flip(d) : x.narrow(d, 0, 1).expand(sized(x, d, count)));
    }
    if (bodyTo > bodyFrom) pieces.add(x.narrow(d, bodyFrom, bodyTo - bodyFrom));
    if (end > tailFrom) {  // v in [tailFrom, end): x[2n - 2 - v] mirrored, or x[n - 1]
      long count = end - tailFrom;
      pieces.add(reflect ? x.narrow(d, 2 * n - 1 - end, count).flip(d) : x.narrow(d, n - 1, 1).expand(sized(x, d, count)));
    }
    return pieces.size() == 1 ? pieces.get(0) : Tensor.cat(pieces, d);
  }

  /** PyTorch's _pad_circular: crop by the negative pads, then wrap the cropped part by the positive ones, each at most once. */
  private static Tensor circular(String op, Tensor x, int d, long before, long after) {
    long n = x.shape()[d];
    if (before > n || after > n) throw new IllegalArgumentException(op + "(): Padding value causes wrapping around more than once.");
    if (n + before + after < 0) throw new IllegalArgumentException(op + "(): Negative padding value is resulting in an empty dimension");
    long from = Math.max(0, -before), m = n - from - Math.max(0, -after);
    Tensor kept = x.narrow(d, from, m);
    long left = Math.max(0, before), right = Math.max(0, after);
    if (left > m || right > m) {  // PyTorch's copies would overlap (and refuse): the cropped part wrapped more than once
      throw new IllegalArgumentException(op + "(): Padding value causes wrapping around more than once.");
    }
    return Tensor.cat(List.of(kept.narrow(d, m - left, left), kept, kept.narrow(d, 0, right)), d);
  }

  private static long[] sized(Tensor x, int d, long length) {
    long[] shape = x.shape().clone();
    shape[d] = length;
    return shape;
  }
}
