package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ops.Distances;

/**
 * The margin and embedding losses behind Functional's marginRankingLoss, hingeEmbeddingLoss,
 * softMarginLoss, multilabelSoftMarginLoss, cosineEmbeddingLoss and tripletMarginLoss: ATen's
 * compositions (aten/src/ATen/native/Loss.cpp, or torch.nn.functional's for the multilabel soft
 * margin), so autograd derives them; inputs broadcast as there, and PyTorch's refusals.
 */
final class MarginLosses {
  private MarginLosses() {}

  /** max(0, −y·(x1 − x2) + margin). */
  static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    if (input1.dim() != input2.dim() || input1.dim() != target.dim()) {
      throw new IllegalArgumentException("marginRankingLoss(): margin_ranking_loss : All input tensors should have same dimension but got "
          + "sizes: input1: " + Arrays.toString(input1.shape()) + ", input2: " + Arrays.toString(input2.shape()) + ", target: "
          + Arrays.toString(target.shape()));
    }
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Losses.fold(target.neg().mul(input1.sub(input2)).add(margin).clampMin(0.0), reduction));
    }
  }

  /** x where y is 1, max(0, margin − x) where y is −1 (any other y: both terms, as ATen's). */
  static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor marginTerm = Tensor.where(target.ne(1.0), input.neg().add(margin).clampMin(0.0), 0.0);
      Tensor selfTerm = Tensor.where(target.ne(-1.0), input, 0.0);
      return s.keep(Losses.fold(marginTerm.add(selfTerm), reduction));
    }
  }

  /** log(1 + e^(−y·x)), as ATen computes it (log1p of exp: past exp's range the loss is inf, as PyTorch's). */
  static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(Losses.fold(input.neg().mul(target).exp().log1p(), reduction));
    }
  }

  /** −(y·log σ(x) + (1 − y)·log σ(−x)), times weight, averaged over the last (class) dim: one loss per sample. */
  static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
    if (input.dim() == 0) throw new IllegalArgumentException("multilabelSoftMarginLoss(): expected an input with a class dim, got a 0-dim tensor");
    try (TensorScope s = TensorScope.open()) {
      Tensor loss = target.mul(input.logSigmoid()).add(target.neg().add(1.0).mul(input.neg().logSigmoid())).neg();
      if (weight != null) loss = loss.mul(weight);
      int classDim = input.dim() - 1;
      return s.keep(Losses.fold(loss.sum(classDim).div((double) input.shape()[classDim]), reduction));
    }
  }

  /** 1 − cos(x1, x2) where y is 1, max(0, cos − margin) where y is −1, 0 elsewhere; cos with ATen's 1e-12 under each squared norm. */
  static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    String op = "cosineEmbeddingLoss";
    int d = target.dim();
    if (d > 1) throw new IllegalArgumentException(op + "(): 0D or 1D target tensor expected, multi-target not supported");
    if (input1.dim() != d + 1 || input2.dim() != d + 1) {
      throw new IllegalArgumentException(op + "(): " + d + "D target tensor expects " + (d + 1) + "D input tensors, but found inputs with sizes "
          + Arrays.toString(input1.shape()) + " and " + Arrays.toString(input2.shape()) + ".");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor prod = input1.mul(input2).sum(d);
      Tensor mag1 = input1.mul(input1).sum(d).add(1e-12), mag2 = input2.mul(input2).sum(d).add(1e-12);
      Tensor cos = prod.div(mag1.mul(mag2).sqrt());
      Tensor pos = Tensor.where(target.eq(1.0), cos.neg().add(1.0), 0.0);
      Tensor neg = Tensor.where(target.eq(-1.0), cos.sub(margin).clampMin(0.0), 0.0);
      return s.keep(Losses.fold(pos.add(neg), reduction));
    }
  }

  /** max(0, margin + d(a, p) − d(a, n)), d the pairwise distance; swap takes min(d(a, n), d(p, n)) as the negative's. */
  static Tensor tripletMarginLoss(Tensor anchor, Tensor positive, Tensor negative, double margin, double p, double eps, boolean swap,
                                  Reduction reduction) {
    String op = "tripletMarginLoss";
    if (!(margin > 0)) throw new IllegalArgumentException(op + "(): margin must be greater than 0, got " + margin);
    if (anchor.dim() != positive.dim() || positive.dim() != negative.dim()) {
      throw new IllegalArgumentException(op + "(): The anchor, positive, and negative tensors are expected to have the same number of "
          + "dimensions, but got: anchor " + anchor.dim() + "D, positive " + positive.dim() + "D, and negative " + negative.dim() + "D inputs");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor pos = Distances.pairwiseDistance(anchor, positive, p, eps, false), neg = Distances.pairwiseDistance(anchor, negative, p, eps, false);
      if (swap) neg = neg.minimum(Distances.pairwiseDistance(positive, negative, p, eps, false));
      return s.keep(Losses.fold(pos.add(margin).sub(neg).clampMin(0.0), reduction));
    }
  }
}
