package org.jtensor.optim;

/**
 * Updates parameters from their gradients (torch.optim.Optimizer). It holds the parameters without
 * owning them and owns its state (momentum buffers, moment estimates): close it to free that.
 *
 * <p>Parameters come in groups ({@link ParamGroup}, PyTorch's param_groups), each with its own
 * learning rate and options; an optimizer made from a parameter list has one. lr(), setLr() and
 * initialLr() are group 0's (the only one's, for such an optimizer); lr(int), setLr(int, double),
 * initialLr(int) and parameters(int) are a given group's, numbered from 0 in the order given.
 */
public interface Optimizer extends AutoCloseable {
  /** One update of every parameter that has a gradient; records nothing. */
  void step();

  /** The parameters it updates, every group's in order (numbered so in its state dict); it does not own them. */
  java.util.List<org.jtensor.Tensor> parameters();

  /** The parameters of one group, in order. */
  default java.util.List<org.jtensor.Tensor> parameters(int group) {
    checkGroup(group);
    return parameters();
  }

  /** The number of parameter groups (PyTorch's len(param_groups)). */
  default int paramGroupCount() {
    return 1;
  }

  /** Clears every parameter's gradient (set to none, PyTorch's default). */
  void zeroGrad();

  /** Group 0's learning rate. */
  double lr();

  /** One group's learning rate (PyTorch's param_groups[group]["lr"]). */
  default double lr(int group) {
    checkGroup(group);
    return lr();
  }

  /** Sets group 0's learning rate (for schedulers; a non-negative number). */
  void setLr(double lr);

  /** Sets one group's learning rate (a non-negative number). */
  default void setLr(int group, double lr) {
    checkGroup(group);
    setLr(lr);
  }

  /** One group's initial rate, as {@link #initialLr()} is group 0's. */
  default double initialLr(int group) {
    checkGroup(group);
    return initialLr();
  }

  private void checkGroup(int group) {
    if (group != 0) throw new IndexOutOfBoundsException("parameter group " + group + " out of range (the optimizer has 1)");
  }

  /**
   * Sets the momentum OneCycleLR cycles: SGD's momentum, Adam's and AdamW's β₁; refused by an
   * optimizer without one.
   */
  default void setMomentum(double momentum) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + ".setMomentum(): optimizer must support momentum or beta1 "
        + "with `cycle_momentum` option enabled");
  }

  /**
   * The rate schedulers scale (PyTorch's group['initial_lr'], group 0's): the learning rate when the first
   * scheduler asked for it, the same for every scheduler after (so a warm-up that lowers lr does
   * not lower the base of the schedule that follows it).
   */
  double initialLr();

  /**
   * The state in PyTorch's layout (torch.optim.Optimizer.state_dict): {"state": {parameter index:
   * {name: tensor}}, "param_groups": [{options..., "params": [indices]}, ...]}, one entry per group, the
   * indices numbered across the groups in order, tensors as new
   * handles the caller closes. Tensors.saveObject writes it as a .pt file PyTorch loads.
   */
  java.util.Map<String, Object> stateDict();

  /**
   * Restores a state from stateDict() or from PyTorch's optimizer of the same kind over the same
   * parameters in groups of the same sizes: each group's learning rate and options, each parameter's
   * state copied. Checked whole before anything changes; a mismatch names the first problem (PyTorch's
   * words for a different number of groups or a group of another size).
   */
  void loadStateDict(java.util.Map<String, Object> state);

  /** Frees the optimizer's state; the parameters stay. A closed optimizer refuses step(), stateDict() and loadStateDict(). */
  @Override
  void close();
}
