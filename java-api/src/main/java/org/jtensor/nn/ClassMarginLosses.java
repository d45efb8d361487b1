package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * The multi-class hinge losses behind Functional's multiMarginLoss and multilabelMarginLoss:
 * ATen's kernels' sums written as masked tensor ops (so autograd derives the gradient), over
 * input [N, C], [C] or a 0-dim input, with PyTorch's shape, dtype and range refusals.
 */
final class ClassMarginLosses {
  private ClassMarginLosses() {}

  /** Σ_{j ≠ y} max(0, margin − x[y] + x[j])^p · weight[y] / C per sample; p 1 or 2. */
  static Tensor multiMarginLoss(Tensor input, Tensor target, int p, double margin, Tensor weight, Reduction reduction) {
    String op = "multiMarginLoss";
    if (p != 1 && p != 2) throw new IllegalArgumentException(op + "(): only p == 1 and p == 2 supported");
    if (weight != null && weight.dim() != 1) throw new IllegalArgumentException(op + "(): weight must be one-dimensional");
    long[] size = checkInput(op, input);
    long n = size[0], c = size[1];
    if (target.dim() > 1 || target.numel() != n) {
      throw new IllegalArgumentException(op + "(): multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
          + "samples (batch size). Expected target size [" + n + "], but got " + Arrays.toString(target.shape()) + ". Input has shape "
          + Arrays.toString(input.shape()) + ".");
    }
    if (weight != null && weight.numel() != c) {
      throw new IllegalArgumentException(op + "(): inconsistent weight size, expected " + c + " but got " + Arrays.toString(weight.shape()));
    }
    checkLong(op, target);
    Losses.notDifferentiable(op, "multi_margin_loss", "weight", weight);
    try (TensorScope s = TensorScope.open()) {
      checkRange(op, target, 0, c, "target out of range");
      Tensor x = input.reshape(n, c), t = target.reshape(n, 1);
      Tensor z = x.sub(x.gather(1, t)).add(margin).clampMin(0.0);
      if (p == 2) z = z.mul(z);
      if (weight != null) z = z.mul(weight.indexSelect(0, t.reshape(-1)).unsqueeze(1));
      Tensor others = Tensor.arange(c).to(input.device()).unsqueeze(0).ne(t);
      Tensor loss = Tensor.where(others, z, 0.0).sum(1).div((double) c);
      // 'none' is shaped as the target ([N], or 0-dim for a 0-dim target); an empty batch's mean is NaN (PyTorch's reads uninitialized memory)
      return s.keep(Losses.fold(loss.reshape(target.shape()), reduction));
    }
  }

  /**
   * Σ over the target classes j (each sample's row of class indices up to the first −1) and the
   * non-target classes k of max(0, 1 − (x[j] − x[k])) / C; a class listed twice counts twice, as in ATen.
   */
  static Tensor multilabelMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    String op = "multilabelMarginLoss";
    long[] size = checkInput(op, input);
    long n = size[0], c = size[1];
    boolean matches = input.dim() <= 1 ? target.dim() <= 1 && target.numel() == c : Arrays.equals(target.shape(), input.shape());
    if (!matches) {
      throw new IllegalArgumentException(op + "(): inconsistent target size: " + Arrays.toString(target.shape()) + " for input of size: "
          + Arrays.toString(input.shape()));
    }
    checkLong(op, target);
    try (TensorScope s = TensorScope.open()) {
      checkRange(op, target, -1, c, "argument #2 'target' is out of range");
      Tensor x = input.reshape(n, c), t = target.reshape(n, c);
      Tensor listed = t.eq(-1L).to(DType.INT64).cumsum(1).eq(0L);  // the entries before the first −1
      Tensor safe = Tensor.where(listed, t, 0L);
      Tensor isTarget = Tensor.zeros(new long[] {n, c}, DType.INT64).to(input.device()).scatterAdd(1, safe, listed.to(DType.INT64)).gt(0L);
      Tensor hinge = x.unsqueeze(1).sub(x.gather(1, safe).unsqueeze(2)).add(1.0).clampMin(0.0);  // [n, slot j, class k]
      Tensor counted = listed.unsqueeze(2).logicalAnd(isTarget.logicalNot().unsqueeze(1));
      Tensor loss = Tensor.where(counted, hinge, 0.0).sum(new int[] {1, 2}, false).div((double) c);
      if (input.dim() <= 1) loss = loss.reshape();
      if (reduction == Reduction.MEAN && n == 0) return s.keep(loss.sum());  // PyTorch's 0 for an empty batch's mean
      return s.keep(Losses.fold(loss, reduction));
    }
  }

  /** ATen's shape check; {N, C} with N 1 and C 1 for a 0-dim input. */
  private static long[] checkInput(String op, Tensor input) {
    long[] sh = input.shape();
    if (!(sh.length == 2 && sh[1] != 0 || sh.length == 1 && sh[0] != 0 || sh.length == 0)) {
      throw new IllegalArgumentException(op + "(): Expected non-empty vector or matrix with optional 0-dim batch size, but got: " + Arrays.toString(sh));
    }
    return new long[] {sh.length <= 1 ? 1 : sh[0], sh.length == 0 ? 1 : sh[sh.length - 1]};
  }

  private static void checkLong(String op, Tensor target) {
    if (target.dtype() != DType.INT64) throw new IllegalArgumentException(op + "(): expected scalar type int64 but found " + target.dtype());
  }

  /** Every target in [lo, hi), checked before anything is read with it. */
  private static void checkRange(String op, Tensor target, long lo, long hi, String words) {
    if (target.numel() > 0 && (target.amin().item() < lo || target.amax().item() >= hi)) throw new IndexOutOfBoundsException(op + "(): " + words);
  }
}
