package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.ops.Autocasting;

/**
 * The binary cross entropies behind Functional's binaryCrossEntropy and binaryCrossEntropyWithLogits,
 * with ATen's gradients, the optional weight (and pos_weight) broadcast to the input, and PyTorch's checks.
 */
final class BinaryLosses {
  private BinaryLosses() {}

  static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Tensor weight, Reduction reduction) {
    return Autocasting.apply("binaryCrossEntropy", c -> binaryCrossEntropyAs(c[0], c[1], c[2], reduction), probs, target, weight);
  }

  private static Tensor binaryCrossEntropyAs(Tensor probs, Tensor target, Tensor weight, Reduction reduction) {
    String op = "binaryCrossEntropy";
    sameSize(op, probs, target, "Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure they have "
        + "the same size.");
    checkWeight(op, "binary_cross_entropy", "weight", weight, probs);
    try (TensorScope s = TensorScope.open()) {
      if (probs.numel() > 0 && probs.ge(0.0).logicalAnd(probs.le(1.0)).all().item() == 0) {  // NaN fails both
        throw new IllegalArgumentException(op + "(): all elements of input should be between 0 and 1");
      }
      Tensor logP = probs.log().clampMin(-100);
      Tensor log1mP = probs.neg().add(1.0).log().clampMin(-100);
      Tensor loss;
      if (!probs.requiresGrad()) {
        loss = target.mul(logP).add(target.neg().add(1.0).mul(log1mP)).neg();
      } else {
        // The input's gradient is ATen's binary_cross_entropy_backward, (p − t) / max(p·(1 − p), 1e-12):
        // through the clamped logs it was 0/0 = NaN wherever p is 0 or 1 (a saturated sigmoid), even
        // for a target that agrees. The value and the target's gradient stay the clamped formula's.
        // c in float32 for float16, where 1e-12 is 0: c = ±inf made the surrogate's value 0·inf, the loss NaN
        // (PyTorch's float16 value stays finite; its gradient, ±5e11, rounds to ±inf in float16 as there)
        Tensor p = probs.detach(), t = target.detach(), pc = p.dtype() == DType.FLOAT16 ? p.to(DType.FLOAT32) : p;
        Tensor c = pc.sub(t).div(pc.neg().add(1.0).mul(pc).clampMin(1e-12));
        Tensor main = target.mul(logP.detach()).add(target.neg().add(1.0).mul(log1mP.detach())).neg();
        loss = main.add(probs.sub(p).mul(c)).to(main.dtype());  // the added term's value 0, its gradient c
      }
      if (weight != null) loss = loss.mul(weight.to(loss.dtype()));
      return s.keep(Losses.fold(loss, reduction));
    }
  }

  static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Tensor weight, Tensor posWeight, Reduction reduction) {
    return Autocasting.apply("binaryCrossEntropyWithLogits", c -> withLogitsAs(c[0], c[1], c[2], c[3], reduction), logits, target, weight, posWeight);
  }

  /** (1 − t)·x + lw·(−log σ(x)), lw = (posWeight − 1)·t + 1 (1 without posWeight), times weight. */
  private static Tensor withLogitsAs(Tensor logits, Tensor target, Tensor weight, Tensor posWeight, Reduction reduction) {
    String op = "binaryCrossEntropyWithLogits";
    sameSize(op, logits, target, "Target size (%s) must be the same as input size (%s)");
    checkWeight(op, "binary_cross_entropy_with_logits", "weight", weight, logits);
    checkWeight(op, "binary_cross_entropy_with_logits", "pos_weight", posWeight, logits);
    try (TensorScope s = TensorScope.open()) {
      // ATen's −log σ(x) = max(−x, 0) + log1p(e^−|x|) taken on x detached: through clampMin and abs
      // autograd gave 1 − t at x = 0 (a zero-initialised head), not σ(0) − t = 0.5 − t.
      Tensor x = logits.detach();
      Tensor softplus = x.neg().clampMin(0).add(x.abs().neg().exp().log1p());
      if (logits.requiresGrad()) {  // adds σ(x) − 1 to −log σ(x)'s gradient, its value 0 (infinite x: none)
        Tensor finite = x.isfinite(), c = x.neg().sigmoid().neg();
        softplus = softplus.add(Tensor.where(finite, logits.sub(x).mul(c), 0.0));
      }
      if (posWeight != null) softplus = softplus.mul(posWeight.to(softplus.dtype()).sub(1.0).mul(target).add(1.0));
      Tensor loss = target.neg().add(1.0).mul(logits).add(softplus);
      if (weight != null) loss = loss.mul(weight.to(loss.dtype()));  // a float64 weight leaves a float32 loss float32, as ATen's
      return s.keep(Losses.fold(loss, reduction));
    }
  }

  /**
   * A weight broadcasts to the input's shape without growing it (ATen writes the loss in the
   * input's shape) and takes no gradient (ATen has no derivative for it).
   */
  private static void checkWeight(String op, String aten, String name, Tensor weight, Tensor input) {
    if (weight == null) return;
    long[] shape = Shapes.broadcastShapes(op, input.shape(), weight.shape());
    if (!Arrays.equals(shape, input.shape())) {
      throw new IllegalArgumentException(op + "(): output with shape " + Arrays.toString(input.shape()) + " doesn't match the broadcast shape "
          + Arrays.toString(shape));
    }
    Losses.notDifferentiable(op, aten, name, weight);
  }

  /** PyTorch's ValueError where target's shape is not input's (F.binary_cross_entropy never broadcasts): rule has target's, then input's. */
  private static void sameSize(String op, Tensor input, Tensor target, String rule) {
    if (!Arrays.equals(input.shape(), target.shape())) {
      throw new IllegalArgumentException(op + "(): " + String.format(rule, Arrays.toString(target.shape()), Arrays.toString(input.shape())));
    }
  }
}
