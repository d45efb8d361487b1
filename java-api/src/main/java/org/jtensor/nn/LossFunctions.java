package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * torch.nn.functional's losses, called as {@code Functional.crossEntropy(...)}: a superclass of
 * {@link Functional}, as {@link ConvolutionFunctions} is.
 */
public abstract sealed class LossFunctions extends PoolingFunctions permits Functional {
  LossFunctions() {}

  /** Mean negative log-likelihood of the target classes (torch.nn.functional.nll_loss). */
  public static Tensor nllLoss(Tensor logProbs, Tensor target) {
    return Losses.nllLoss(logProbs, target);
  }

  /**
   * logProbs [N, C] (or [N, C, d...], or [C] with a 0-dim target), target int64 [N] (or [N, d...];
   * uint8 where logProbs has at most 2 dims, as PyTorch's); entries equal to
   * ignoreIndex count for nothing, and the mean divides by the entries that count.
   */
  public static Tensor nllLoss(Tensor logProbs, Tensor target, long ignoreIndex, Reduction reduction) {
    return Losses.nllLoss(logProbs, target, ignoreIndex, reduction);
  }

  /** nllLoss with class weights (null: none): a mean divides by the counted entries' target weights. */
  public static Tensor nllLoss(Tensor logProbs, Tensor target, Tensor weight, long ignoreIndex, Reduction reduction) {
    return Losses.nllLoss(logProbs, target, weight, ignoreIndex, reduction);
  }

  /** Cross entropy of logits against class indices, or class probabilities shaped as the logits (mean over the batch). */
  public static Tensor crossEntropy(Tensor logits, Tensor target) {
    return Losses.crossEntropy(logits, target);
  }

  /**
   * torch.nn.functional.cross_entropy with class indices (a floating-point target: class
   * probabilities, as the overload with a weight): log_softmax over dim 1, then the
   * negative log-likelihood; labelSmoothing ε mixes in the uniform distribution:
   * (1 − ε)·nll + ε·mean over classes of −log p.
   */
  public static Tensor crossEntropy(Tensor logits, Tensor target, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    return Losses.crossEntropy(logits, target, ignoreIndex, labelSmoothing, reduction);
  }

  /** crossEntropy with class weights (null: none); a floating-point target holds class probabilities shaped as the logits. */
  public static Tensor crossEntropy(Tensor logits, Tensor target, Tensor weight, long ignoreIndex, double labelSmoothing,
                                    Reduction reduction) {
    return Losses.crossEntropy(logits, target, weight, ignoreIndex, labelSmoothing, reduction);
  }

  /** Mean absolute error (torch.nn.functional.l1_loss). */
  public static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
    return Losses.l1Loss(input, target, reduction);
  }

  /** torch.nn.functional.smooth_l1_loss: quadratic below beta, linear above. */
  public static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
    return Losses.smoothL1Loss(input, target, reduction, beta);
  }

  /** torch.nn.functional.huber_loss: quadratic up to delta, linear (slope delta) above. */
  public static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
    return Losses.huberLoss(input, target, reduction, delta);
  }

  /**
   * torch.nn.functional.kl_div(input, target, reduction, log_target) with input log-probabilities;
   * batchMean is reduction="batchmean" (the sum over the batch size, the mathematically right mean).
   */
  public static Tensor klDiv(Tensor input, Tensor target, Reduction reduction, boolean batchMean, boolean logTarget) {
    return Losses.klDiv(input, target, reduction, batchMean, logTarget);
  }

  /** torch.nn.functional.margin_ranking_loss: max(0, −y·(x1 − x2) + margin), y ±1; the three of one rank, broadcast. */
  public static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.marginRankingLoss(input1, input2, target, margin, reduction);
  }

  /** torch.nn.functional.hinge_embedding_loss: x where y is 1, max(0, margin − x) where y is −1. */
  public static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.hingeEmbeddingLoss(input, target, margin, reduction);
  }

  /** torch.nn.functional.soft_margin_loss: log(1 + e^(−y·x)). */
  public static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    return MarginLosses.softMarginLoss(input, target, reduction);
  }

  /** torch.nn.functional.multilabel_soft_margin_loss: the binary logistic loss of each class (times weight, or null), averaged over classes. */
  public static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
    return MarginLosses.multilabelSoftMarginLoss(input, target, weight, reduction);
  }

  /** torch.nn.functional.cosine_embedding_loss: 1 − cos(x1, x2) where y is 1, max(0, cos − margin) where y is −1; [N, D] with [N], or [D] with a 0-dim y. */
  public static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.cosineEmbeddingLoss(input1, input2, target, margin, reduction);
  }

  /**
   * torch.nn.functional.triplet_margin_loss: max(0, margin + d(a, p) − d(a, n)) with d the
   * pairwise p-distance (eps added to each difference); swap uses min(d(a, n), d(p, n)).
   */
  public static Tensor tripletMarginLoss(Tensor anchor, Tensor positive, Tensor negative, double margin, double p, double eps, boolean swap,
                                         Reduction reduction) {
    return MarginLosses.tripletMarginLoss(anchor, positive, negative, margin, p, eps, swap, reduction);
  }

  /** torch.nn.functional.poisson_nll_loss: e^x − y·x (logInput) or x − y·log(x + eps); full adds Stirling's term where y > 1. */
  public static Tensor poissonNllLoss(Tensor input, Tensor target, boolean logInput, boolean full, double eps, Reduction reduction) {
    return LikelihoodLosses.poissonNllLoss(input, target, logInput, full, eps, reduction);
  }

  /** torch.nn.functional.gaussian_nll_loss: ½·(log var + (x − y)²/var) (+ ½·log 2π when full), var clamped below at eps. */
  public static Tensor gaussianNllLoss(Tensor input, Tensor target, Tensor var, boolean full, double eps, Reduction reduction) {
    return LikelihoodLosses.gaussianNllLoss(input, target, var, full, eps, reduction);
  }

  /** gaussianNllLoss with one variance for every expectation (PyTorch's float var), refused when negative. */
  public static Tensor gaussianNllLoss(Tensor input, Tensor target, double var, boolean full, double eps, Reduction reduction) {
    return LikelihoodLosses.gaussianNllLoss(input, target, var, full, eps, reduction);
  }

  /**
   * torch.nn.functional.multi_margin_loss: Σ_{j ≠ y} max(0, margin − x[y] + x[j])^p · weight[y] / C
   * for input [N, C] (or [C]) and int64 class indices target [N]; p 1 or 2, weight null or [C].
   */
  public static Tensor multiMarginLoss(Tensor input, Tensor target, int p, double margin, Tensor weight, Reduction reduction) {
    return ClassMarginLosses.multiMarginLoss(input, target, p, margin, weight, reduction);
  }

  /**
   * torch.nn.functional.multilabel_margin_loss: target int64 shaped as input [N, C] (or [C]), each
   * row its classes up to the first −1; Σ over those j and the other classes k of max(0, 1 − (x[j] − x[k])) / C.
   */
  public static Tensor multilabelMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    return ClassMarginLosses.multilabelMarginLoss(input, target, reduction);
  }

  /** Mean squared error. */
  public static Tensor mseLoss(Tensor input, Tensor target) {
    return Losses.mseLoss(input, target);
  }

  public static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
    return Losses.mseLoss(input, target, reduction);
  }

  /** −(y·log p + (1 − y)·log(1 − p)), each log clamped at −100 as PyTorch does. */
  public static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Reduction reduction) {
    return BinaryLosses.binaryCrossEntropy(probs, target, null, reduction);
  }

  /** binaryCrossEntropy with each element's loss times weight (null: none), which broadcasts to the input's shape. */
  public static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Tensor weight, Reduction reduction) {
    return BinaryLosses.binaryCrossEntropy(probs, target, weight, reduction);
  }

  /** binaryCrossEntropy(sigmoid(x), y) computed stably as PyTorch's: (1 − y)·x + max(−x, 0) + log(1 + e^−|x|); gradient σ(x) − y. */
  public static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Reduction reduction) {
    return BinaryLosses.binaryCrossEntropyWithLogits(logits, target, null, null, reduction);
  }

  /**
   * torch.nn.functional.binary_cross_entropy_with_logits(input, target, weight, pos_weight): the
   * positive term −y·log σ(x) times posWeight (one per class, the last dim), each element's loss
   * times weight; either may be null, both broadcast to the input's shape.
   */
  public static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Tensor weight, Tensor posWeight, Reduction reduction) {
    return BinaryLosses.binaryCrossEntropyWithLogits(logits, target, weight, posWeight, reduction);
  }
}
