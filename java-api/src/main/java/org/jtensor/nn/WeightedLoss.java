package org.jtensor.nn;

import org.jtensor.Tensor;

/**
 * A loss with a weight (torch.nn's _WeightedLoss): the buffer "weight", the module's own handle on the
 * given tensor's storage (so it is in the state dict, moved by to() and closed with the module),
 * registered as None when null, as PyTorch's: then the state dict has no "weight".
 */
public abstract class WeightedLoss extends Loss {
  private final Tensor weight;

  WeightedLoss(Tensor weight, String reduction) {
    super(reduction, "input", "target");
    this.weight = registerWeight("weight", weight);
  }

  /** The weight buffer, or null. */
  public final Tensor weight() {
    return weight;
  }

  /** register_buffer(name, weight) over the caller's storage (null: the name, no tensor). */
  final Tensor registerWeight(String name, Tensor w) {
    return registerBuffer(name, w == null ? null : w.detach());
  }
}
