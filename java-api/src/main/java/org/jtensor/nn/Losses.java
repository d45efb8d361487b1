package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/** The losses behind Functional's public ones (nllLoss, crossEntropy, mseLoss, the binary cross entropies), with PyTorch's checks. */
final class Losses {
  private Losses() {}

  static Tensor nllLoss(Tensor logProbs, Tensor target) {
    return nllLoss(logProbs, target, -100, Reduction.MEAN);
  }

  static Tensor nllLoss(Tensor logProbs, Tensor target, long ignoreIndex, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor[] flat = flatten("nllLoss", logProbs, target);
      Tensor[] nll = targetNll(flat, ignoreIndex);
      return s.keep(reduce(nll[0].mul(nll[1]), nll[1], reduction, target.shape()));
    }
  }

  static Tensor crossEntropy(Tensor logits, Tensor target) {
    return crossEntropy(logits, target, -100, 0.0, Reduction.MEAN);
  }

  static Tensor crossEntropy(Tensor logits, Tensor target, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    if (!(labelSmoothing >= 0 && labelSmoothing <= 1)) {
      throw new IllegalArgumentException("crossEntropy(): label_smoothing must be between 0.0 and 1.0. Got: " + labelSmoothing);
    }
    if (logits.dim() < 1) throw new IllegalArgumentException("crossEntropy(): expected logits with a class dim, got a 0-dim tensor");
    try (TensorScope s = TensorScope.open()) {
      Tensor logp = logits.logSoftmax(logits.dim() == 1 ? 0 : 1);
      if (labelSmoothing == 0) return s.keep(nllLoss(logp, target, ignoreIndex, reduction));
      Tensor[] flat = flatten("crossEntropy", logp, target);
      Tensor[] nll = targetNll(flat, ignoreIndex);
      Tensor smooth = flat[0].mean(1).neg();
      Tensor losses = nll[0].mul(1 - labelSmoothing).add(smooth.mul(labelSmoothing)).mul(nll[1]);
      return s.keep(reduce(losses, nll[1], reduction, target.shape()));
    }
  }

  static Tensor mseLoss(Tensor input, Tensor target) {
    return mseLoss(input, target, Reduction.MEAN);
  }

  static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor d = input.sub(target);
      return s.keep(fold(d.mul(d), reduction));
    }
  }

  static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor logP = probs.log().clampMin(-100);
      Tensor log1mP = probs.neg().add(1.0).log().clampMin(-100);
      Tensor loss = target.mul(logP).add(target.neg().add(1.0).mul(log1mP)).neg();
      return s.keep(fold(loss, reduction));
    }
  }

  static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor loss = logits.clampMin(0).sub(logits.mul(target)).add(logits.abs().neg().exp().log1p());
      return s.keep(fold(loss, reduction));
    }
  }

  /** −log p of each row's target ([M], ignored rows read class 0) and which rows count (bool [M]), from [M, C] and [M]. */
  private static Tensor[] targetNll(Tensor[] flat, long ignoreIndex) {
    Tensor valid = flat[1].ne(ignoreIndex);
    Tensor safe = Tensor.where(valid, flat[1], 0.0).to(DType.INT64);
    return new Tensor[] {flat[0].gather(1, safe.unsqueeze(1)).squeeze(1).neg(), valid};
  }

  private static Tensor fold(Tensor losses, Reduction reduction) {
    switch (reduction) {
      case NONE: return losses.view(losses.shape());
      case SUM: return losses.sum();
      default: return losses.mean();
    }
  }

  /** Per-entry losses of the flattened batch folded as asked; a mean divides by the entries that count. */
  private static Tensor reduce(Tensor losses, Tensor valid, Reduction reduction, long[] targetShape) {
    switch (reduction) {
      case NONE: return losses.reshape(targetShape);
      case SUM: return losses.sum();
      default: return losses.sum().div(valid.sum());
    }
  }

  /** [N, C, d...] scores and [N, d...] targets as [M, C] and [M]. */
  private static Tensor[] flatten(String op, Tensor scores, Tensor target) {
    if (target.dtype() != DType.INT64) {
      throw new IllegalArgumentException(op + "(): expected target of class indices (int64), got " + target.dtype());
    }
    if (scores.dim() == 1) return new Tensor[] {scores.unsqueeze(0), target.reshape(1)};
    long[] s = scores.shape(), t = target.shape();
    boolean ok = t.length == s.length - 1 && t[0] == s[0];
    for (int d = 2; ok && d < s.length; d++) ok = t[d - 1] == s[d];
    if (!ok) {
      throw new IllegalArgumentException(op + "(): Expected target size " + Arrays.toString(expectedTarget(s)) + ", got "
          + Arrays.toString(t));
    }
    if (s.length == 2) return new Tensor[] {scores.view(s), target.view(t)};
    int[] perm = new int[s.length];
    perm[s.length - 1] = 1;
    for (int d = 0, j = 0; d < s.length; d++) if (d != 1) perm[j++] = d;
    return new Tensor[] {scores.permute(perm).reshape(-1, s[1]), target.reshape(-1)};
  }

  private static long[] expectedTarget(long[] s) {
    long[] t = new long[s.length - 1];
    t[0] = s[0];
    for (int d = 2; d < s.length; d++) t[d - 1] = s[d];
    return t;
  }
}
