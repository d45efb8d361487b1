package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.core.ScalarTypes;

/** nll_loss's rules for class-index targets, shared by nllLoss and crossEntropy (Losses). */
final class ClassTargets {
  private ClassTargets() {}

  /**
   * [N, C, d...] scores and [N, d...] targets (int64, or uint8 up to 2-D as ATen's) as [M, C] and int64 [M], in nll_loss's words
   * and PyTorch 2.13's order: the batch, more than one target dim, the target's size, then its dtype (so a float target of the
   * wrong shape is named by the rule it breaks first).
   */
  static Tensor[] flatten(String op, Tensor scores, Tensor target) {
    if (scores.dim() < 1) throw new IllegalArgumentException(op + "(): Expected 1 or more dimensions (got 0)");
    long[] s = scores.shape(), t = target.shape();
    if (s.length >= 2 && (t.length > 0 ? t[0] : 0) != s[0]) {  // a 0-dim target counts as batch 0, as ATen's
      throw new IllegalArgumentException(op + "(): Expected input batch_size (" + s[0] + ") to match target batch_size ("
          + (t.length > 0 ? t[0] : 0) + ").");
    }
    if (s.length <= 2 && t.length > 1) throw new IllegalArgumentException(op + "(): 0D or 1D target tensor expected, multi-target not supported");
    boolean ok = s.length <= 2 || t.length == s.length - 1;
    for (int d = 2; ok && d < s.length; d++) ok = t[d - 1] == s[d];
    if (!ok) {
      throw new IllegalArgumentException(op + "(): Expected target size " + Arrays.toString(expectedTarget(s)) + ", got "
          + Arrays.toString(t));
    }
    DType td = target.dtype();
    if (td != DType.INT64 && (td != DType.UINT8 || scores.dim() > 2)) {
      throw new IllegalArgumentException(op + "(): " + (td == DType.UINT8 ? ScalarTypes.expected(DType.INT64, td)
          : "expected target dtype to be Long or Byte, but got " + ScalarTypes.name(td)));
    }
    Tensor classes = target.to(DType.INT64);
    if (s.length == 1) {  // no batch: a 0-dim target, or one of a single element
      if (t.length == 1 && t[0] != 1) throw new IllegalArgumentException(op + "(): For 1D input, 1D target must have size 1, but got target size: " + t[0]);
      return new Tensor[] {scores.unsqueeze(0), classes.reshape(1)};
    }
    if (s.length == 2) return new Tensor[] {scores.view(s), classes.view(t)};
    int[] perm = new int[s.length];
    perm[s.length - 1] = 1;
    for (int d = 0, j = 0; d < s.length; d++) if (d != 1) perm[j++] = d;
    return new Tensor[] {scores.permute(perm).reshape(-1, s[1]), classes.reshape(-1)};
  }

  /** reduction none's shape: the target's, 0-dim for a 1-D input (PyTorch's too where its target is [1]). */
  static long[] lossShape(Tensor scores, Tensor target) {
    return scores.dim() == 1 ? new long[0] : target.shape();
  }

  private static long[] expectedTarget(long[] s) {
    long[] t = new long[s.length - 1];
    t[0] = s[0];
    for (int d = 2; d < s.length; d++) t[d - 1] = s[d];
    return t;
  }
}
