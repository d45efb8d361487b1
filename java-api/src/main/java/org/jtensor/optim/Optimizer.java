package org.jtensor.optim;

/**
 * Updates parameters from their gradients (torch.optim.Optimizer). It holds the parameters without
 * owning them and owns its state (momentum buffers, moment estimates): close it to free that.
 */
public interface Optimizer extends AutoCloseable {
  /** One update of every parameter that has a gradient; records nothing. */
  void step();

  /** Clears every parameter's gradient (set to none, PyTorch's default). */
  void zeroGrad();

  double lr();

  /** For schedulers. */
  void setLr(double lr);

  /** Frees the optimizer's state; the parameters stay. */
  @Override
  void close();
}
