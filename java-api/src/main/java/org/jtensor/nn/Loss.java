package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * A loss as a module (torch.nn's _Loss and _WeightedLoss): the reduction string ('none' | 'mean' |
 * 'sum') checked when built, and {@code forward(input, target)} (three inputs: {@link ThreeInputLoss})
 * delegating to Functional's loss; the weighted ones are {@link WeightedLoss}es.
 */
public abstract class Loss extends Module {
  private final String reduction;
  final Reduction fold;  // null for KLDivLoss's 'batchmean'
  private final String[] inputs;

  Loss(String reduction, String... inputs) {
    this(reduction, false, inputs);
  }

  Loss(String reduction, boolean batchMeanAllowed, String... inputs) {
    this.fold = batchMeanAllowed && "batchmean".equals(reduction) ? null : Reduction.of(getClass().getSimpleName(), reduction);
    this.reduction = reduction;
    this.inputs = inputs;
  }

  /** The reduction as given ('mean' unless said otherwise), PyTorch's reduction attribute. */
  public final String reduction() {
    return reduction;
  }

  /** A loss needs its target: refused, naming the call to make. */
  @Override
  public final Tensor forward(Tensor input) {
    throw wrongArity();
  }

  /** The loss of input against target, folded by the reduction. */
  public abstract Tensor forward(Tensor input, Tensor target);

  /** For forward(input), and the three-input losses' forward(input, target); worded as Bilinear's. */
  final UnsupportedOperationException wrongArity() {
    String count = inputs.length == 2 ? "two" : "three";
    return new UnsupportedOperationException(getClass().getSimpleName() + " takes " + count + " inputs: call forward(" + String.join(", ", inputs) + ")");
  }
}
