package org.jtensor.optim;

/**
 * Updates parameters from their gradients (torch.optim.Optimizer). It holds the parameters without
 * owning them and owns its state (momentum buffers, moment estimates): close it to free that.
 */
public interface Optimizer extends AutoCloseable {
  /** One update of every parameter that has a gradient; records nothing. */
  void step();

  /** The parameters it updates, in order (the one param group's "params"); it does not own them. */
  java.util.List<org.jtensor.Tensor> parameters();

  /** Clears every parameter's gradient (set to none, PyTorch's default). */
  void zeroGrad();

  double lr();

  /** For schedulers. */
  void setLr(double lr);

  /**
   * Sets the momentum OneCycleLR cycles: SGD's momentum, Adam's and AdamW's β₁; refused by an
   * optimizer without one.
   */
  default void setMomentum(double momentum) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + ".setMomentum(): optimizer must support momentum or beta1 "
        + "with `cycle_momentum` option enabled");
  }

  /**
   * The rate schedulers scale (PyTorch's group['initial_lr']): the learning rate when the first
   * scheduler asked for it, the same for every scheduler after (so a warm-up that lowers lr does
   * not lower the base of the schedule that follows it).
   */
  double initialLr();

  /**
   * The state in PyTorch's layout (torch.optim.Optimizer.state_dict): {"state": {parameter index:
   * {name: tensor}}, "param_groups": [{hyperparameters..., "params": [indices]}]}, tensors as new
   * handles the caller closes. Tensors.saveObject writes it as a .pt file PyTorch loads.
   */
  java.util.Map<String, Object> stateDict();

  /**
   * Restores a state from stateDict() or from PyTorch's optimizer of the same kind over the same
   * parameters (one group): the learning rate and hyperparameters, each parameter's state copied.
   * Checked whole before anything changes; a mismatch names the first problem.
   */
  void loadStateDict(java.util.Map<String, Object> state);

  /** Frees the optimizer's state; the parameters stay. A closed optimizer refuses step(), stateDict() and loadStateDict(). */
  @Override
  void close();
}
