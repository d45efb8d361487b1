package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.jtensor.core.ScalarTypes;
import org.jtensor.ops.Autocasting;

/** The losses behind Functional's public ones (nllLoss, crossEntropy, mseLoss, l1 and its kin, klDiv), with PyTorch's checks. */
final class Losses {
  private Losses() {}

  static Tensor nllLoss(Tensor logProbs, Tensor target) {
    return nllLoss(logProbs, target, -100, Reduction.MEAN);
  }

  static Tensor nllLoss(Tensor logProbs, Tensor target, long ignoreIndex, Reduction reduction) {
    return Autocasting.apply("nllLoss", c -> nllLossAs("nllLoss", c[0], c[1], ignoreIndex, reduction), logProbs, target);
  }

  /** nllLoss with class weights (null: none), as PyTorch's weight argument. */
  static Tensor nllLoss(Tensor logProbs, Tensor target, Tensor weight, long ignoreIndex, Reduction reduction) {
    if (weight == null) return nllLoss(logProbs, target, ignoreIndex, reduction);
    return Autocasting.apply("nllLoss", c -> weightedNll("nllLoss", c[0], c[1], c[2], ignoreIndex, 0, reduction), logProbs, target, weight);
  }

  /** op: the loss the user called (nllLoss, or crossEntropy over its log-softmax), for the messages. */
  private static Tensor nllLossAs(String op, Tensor logProbs, Tensor target, long ignoreIndex, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor[] flat = ClassTargets.flatten(op, logProbs, target);
      Tensor[] nll = targetNll(op, flat, ignoreIndex);
      return s.keep(reduce(nll[0], nll[1], reduction, ClassTargets.lossShape(logProbs, target)));
    }
  }

  static Tensor crossEntropy(Tensor logits, Tensor target) {
    return crossEntropy(logits, target, -100, 0.0, Reduction.MEAN);
  }

  static Tensor crossEntropy(Tensor logits, Tensor target, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    return Autocasting.apply("crossEntropy", c -> crossEntropyAs(c[0], c[1], ignoreIndex, labelSmoothing, reduction), logits, target);
  }

  private static Tensor crossEntropyAs(Tensor logits, Tensor target, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    // class probabilities need no weight: F.cross_entropy(x, soft) is refused here no longer ("expected ... int64")
    if (target.dtype().isFloatingPoint()) return crossEntropyAs(logits, target, null, ignoreIndex, labelSmoothing, reduction);
    checkCrossEntropy(logits, labelSmoothing);
    try (TensorScope s = TensorScope.open()) {
      Tensor logp = logits.logSoftmax(logits.dim() == 1 ? 0 : 1);
      if (labelSmoothing == 0) return s.keep(nllLossAs("crossEntropy", logp, target, ignoreIndex, reduction));
      Tensor[] flat = ClassTargets.flatten("crossEntropy", logp, target);
      Tensor[] nll = targetNll("crossEntropy", flat, ignoreIndex);
      Tensor smooth = Tensor.where(nll[1], flat[0].mean(1).neg(), 0.0);  // masked, not × 0: an ignored row's −inf gave NaN
      Tensor losses = nll[0].mul(1 - labelSmoothing).add(smooth.mul(labelSmoothing));
      return s.keep(reduce(losses, nll[1], reduction, ClassTargets.lossShape(logp, target)));
    }
  }

  /**
   * crossEntropy with class weights (null: none) and, where target is floating point (the logits'
   * shape), class probabilities rather than indices, as PyTorch's: a weighted mean divides by the
   * counted rows' target weights, a probability mean by the rows.
   */
  static Tensor crossEntropy(Tensor logits, Tensor target, Tensor weight, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    return Autocasting.apply("crossEntropy", c -> crossEntropyAs(c[0], c[1], c[2], ignoreIndex, labelSmoothing, reduction), logits, target, weight);
  }

  private static Tensor crossEntropyAs(Tensor logits, Tensor target, Tensor weight, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    if (weight == null && !target.dtype().isFloatingPoint()) return crossEntropy(logits, target, ignoreIndex, labelSmoothing, reduction);
    String op = "crossEntropy";
    checkCrossEntropy(logits, labelSmoothing);
    int classDim = logits.dim() == 1 ? 0 : 1;
    long classes = logits.shape()[classDim];
    if (weight != null) checkWeightSize(op, weight, classes);
    try (TensorScope s = TensorScope.open()) {
      Tensor logp = logits.logSoftmax(classDim);
      if (target.dtype().isFloatingPoint()) {  // probabilities over the classes, shaped as the logits
        // another shape is class indices to PyTorch, refused by their rules: a float [N] target's dtype, most often
        if (!Arrays.equals(target.shape(), logits.shape())) ClassTargets.flatten(op, logits, target);
        Tensor t = labelSmoothing == 0 ? target : target.mul(1 - labelSmoothing).add(labelSmoothing / classes);
        Tensor terms = logp.mul(t);
        if (weight != null) terms = terms.mul(classWise(weight, logits.dim(), classDim));
        Tensor losses = terms.sum(classDim).neg();
        return s.keep(reduction == Reduction.MEAN ? losses.sum().div((double) (losses.numel())) : fold(losses, reduction));
      }
      return s.keep(weightedNll(op, logp, target, weight, ignoreIndex, labelSmoothing, reduction));
    }
  }

  /**
   * nll_loss with class weights over log-probabilities (crossEntropy's after its log-softmax, with
   * its label smoothing ε): each counted entry's −log p times its target's weight; a mean divides
   * by the counted entries' weights. ATen has no derivative for the weight, so one that requires grad is refused.
   */
  private static Tensor weightedNll(String op, Tensor logp, Tensor target, Tensor weight, long ignoreIndex, double labelSmoothing,
                                    Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      Tensor[] flat = ClassTargets.flatten(op, logp, target);
      long classes = flat[0].shape()[1];
      checkWeightSize(op, weight, classes);
      if (weight.dtype() != logp.dtype()) {  // PyTorch's nll_loss kernel reads the weight as the input's type
        throw new IllegalArgumentException(op + "(): " + ScalarTypes.expected(logp.dtype(), weight.dtype()));
      }
      notDifferentiable(op, "nll_loss_forward", "weight", weight);
      Tensor[] nll = targetNll(op, flat, ignoreIndex);
      Tensor valid = nll[1];
      Tensor w = weight.indexSelect(0, nll[2]).mul(valid);  // each row's target weight, 0 where ignored
      Tensor losses = nll[0].mul(w);
      if (labelSmoothing > 0) {
        Tensor smooth = Tensor.where(valid, flat[0].mul(weight.unsqueeze(0)).sum(1).neg(), 0.0);
        losses = losses.mul(1 - labelSmoothing).add(smooth.mul(labelSmoothing / classes));
      }
      switch (reduction) {
        case NONE: return s.keep(losses.reshape(ClassTargets.lossShape(logp, target)));
        case SUM: return s.keep(losses.sum());
        default: return s.keep(losses.sum().div(w.sum()));
      }
    }
  }

  private static void checkWeightSize(String op, Tensor weight, long classes) {
    if (weight.dim() != 1 || weight.numel() != classes) {
      throw new IllegalArgumentException(op + "(): weight tensor should be defined either for all " + classes
          + " classes or no classes but got weight tensor of shape: " + Arrays.toString(weight.shape()));
    }
  }

  private static void checkCrossEntropy(Tensor logits, double labelSmoothing) {
    if (!(labelSmoothing >= 0 && labelSmoothing <= 1)) {
      throw new IllegalArgumentException("crossEntropy(): label_smoothing must be between 0.0 and 1.0. Got: " + labelSmoothing);
    }
    if (logits.dim() < 1) throw new IllegalArgumentException("crossEntropy(): expected logits with a class dim, got a 0-dim tensor");
  }

  /** weight [C] shaped to broadcast along classDim of a dims-dimensional tensor. */
  private static Tensor classWise(Tensor weight, int dims, int classDim) {
    long[] shape = new long[dims];
    Arrays.fill(shape, 1);
    shape[classDim] = weight.numel();
    return weight.reshape(shape);
  }

  static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
    return Autocasting.apply("l1Loss", c -> l1LossAs(c[0], c[1], reduction), input, target);
  }

  private static Tensor l1LossAs(Tensor input, Tensor target, Reduction reduction) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(fold(input.sub(target).abs(), reduction));
    }
  }

  /** 0.5·d²/β where |d| < β, else |d| − 0.5·β; β = 0 is l1Loss. */
  static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
    return Autocasting.apply("smoothL1Loss", c -> smoothL1LossAs(c[0], c[1], reduction, beta), input, target);
  }

  private static Tensor smoothL1LossAs(Tensor input, Tensor target, Reduction reduction, double beta) {
    if (!(beta >= 0)) throw new IllegalArgumentException("smoothL1Loss(): smooth_l1_loss does not support negative values for beta, got " + beta);
    if (beta == 0) return l1Loss(input, target, reduction);  // integers too, as ATen's
    floatingOnly("smoothL1Loss", "smooth_l1_cpu", input, target);
    try (TensorScope s = TensorScope.open()) {
      Tensor d = input.sub(target), a = d.abs();
      return s.keep(fold(Tensor.where(a.lt(beta), d.mul(d).mul(0.5 / beta), a.sub(0.5 * beta)), reduction));
    }
  }

  /** 0.5·d² where |d| ≤ δ, else δ·(|d| − 0.5·δ). */
  static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
    return Autocasting.apply("huberLoss", c -> huberLossAs(c[0], c[1], reduction, delta), input, target);
  }

  private static Tensor huberLossAs(Tensor input, Tensor target, Reduction reduction, double delta) {
    if (!(delta > 0)) throw new IllegalArgumentException("huberLoss(): huber_loss does not support non-positive values for delta, got " + delta);
    floatingOnly("huberLoss", "huber_cpu", input, target);
    try (TensorScope s = TensorScope.open()) {
      Tensor d = input.sub(target), a = d.abs();
      return s.keep(fold(Tensor.where(a.le(delta), d.mul(d).mul(0.5), a.sub(0.5 * delta).mul(delta)), reduction));
    }
  }

  /**
   * Kullback-Leibler divergence of input (log-probabilities) from target: target·(log target −
   * input), 0 where target is 0 (or exp(target)·(target − input) with logTarget). batchMean divides
   * the sum by the batch size (PyTorch's reduction="batchmean"), else reduction folds it.
   */
  static Tensor klDiv(Tensor input, Tensor target, Reduction reduction, boolean batchMean, boolean logTarget) {
    return Autocasting.apply("klDiv", c -> klDivAs(c[0], c[1], reduction, batchMean, logTarget), input, target);
  }

  private static Tensor klDivAs(Tensor input, Tensor target, Reduction reduction, boolean batchMean, boolean logTarget) {
    if (!input.dtype().isFloatingPoint() || !target.dtype().isFloatingPoint()) throw new UnsupportedOperationException("klDiv(): kl_div: Integral inputs not supported.");
    try (TensorScope s = TensorScope.open()) {
      // xlogy(target, target) − target·input: 0·log 0 is 0; a NaN or negative target gives NaN, as PyTorch's
      Tensor pointwise = logTarget ? target.exp().mul(target.sub(input))
          : Tensor.where(target.eq(0.0), target.mul(0.0), target.mul(target.log())).sub(target.mul(input));
      if (batchMean) return s.keep(pointwise.sum().div((double) (input.dim() == 0 ? 1 : input.shape()[0])));
      return s.keep(fold(pointwise, reduction));
    }
  }

  static Tensor mseLoss(Tensor input, Tensor target) {
    return mseLoss(input, target, Reduction.MEAN);
  }

  static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
    return Autocasting.apply("mseLoss", c -> mseLossAs(c[0], c[1], reduction), input, target);
  }

  private static Tensor mseLossAs(Tensor input, Tensor target, Reduction reduction) {
    floatingOnly("mseLoss", "mse_cpu", input, target);
    try (TensorScope s = TensorScope.open()) {
      Tensor d = input.sub(target);
      return s.keep(fold(d.mul(d), reduction));
    }
  }

  /** ATen's "not implemented" for integer or bool inputs (jtensor computed mse of int64 or a float smooth L1 of them). */
  private static void floatingOnly(String op, String kernel, Tensor input, Tensor target) {
    DType d = input.resultType(target);
    if (!d.isFloatingPoint()) throw ScalarTypes.notImplemented(op, kernel, d);
  }

  /**
   * −log p of each row's target ([M], 0 for ignored rows), which rows count (bool [M]) and
   * the class each row read (int64 [M]), from [M, C] and [M].
   */
  private static Tensor[] targetNll(String op, Tensor[] flat, long ignoreIndex) {
    Tensor valid = flat[1].ne(ignoreIndex);
    Tensor safe = flat[1].mul(valid);  // int64 throughout (a float detour rounds classes past 2^24)
    if (safe.numel() > 0) {  // nll_loss's kernel checks each counted target before it reads
      long lo = (long) safe.amin().item(), hi = (long) safe.amax().item(), classes = flat[0].shape()[1];
      if (lo < 0 || hi >= classes) throw new IndexOutOfBoundsException(op + "(): Target " + (lo < 0 ? lo : hi) + " is out of bounds.");
    }
    // ignored rows masked to 0 (ATen skips them): × valid made an ignored row's −inf log-probability NaN
    Tensor nll = Tensor.where(valid, flat[0].gather(1, safe.unsqueeze(1)).squeeze(1).neg(), 0.0);
    return new Tensor[] {nll, valid, safe};
  }

  /** PyTorch's refusal of an argument ATen has no derivative for (a loss's weight), where grad mode would record one. */
  static void notDifferentiable(String op, String aten, String name, Tensor t) {
    if (t != null && t.requiresGrad() && GradMode.isEnabled()) {
      throw new IllegalArgumentException(op + "(): The function '" + aten + "' is not differentiable with respect to argument '" + name
          + "'. This input cannot have requires_grad True.");
    }
  }

  /** Elementwise losses folded as asked (apply_loss_reduction); NONE: a view of them. */
  static Tensor fold(Tensor losses, Reduction reduction) {
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
}
