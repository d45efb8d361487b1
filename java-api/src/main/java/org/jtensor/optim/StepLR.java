package org.jtensor.optim;

/** Multiplies the learning rate by gamma every stepSize epochs (torch.optim.lr_scheduler.StepLR). */
public final class StepLR {
  private final Optimizer optimizer;
  private final int stepSize;
  private final double gamma, baseLr;
  private int epoch;

  public StepLR(Optimizer optimizer, int stepSize, double gamma) {
    if (stepSize <= 0) throw new IllegalArgumentException("StepLR(): step_size must be positive, got " + stepSize);
    this.optimizer = optimizer;
    this.stepSize = stepSize;
    this.gamma = gamma;
    this.baseLr = optimizer.lr();
  }

  /** Call once per epoch, after the optimizer's steps. */
  public void step() {
    epoch++;
    optimizer.setLr(baseLr * Math.pow(gamma, epoch / stepSize));
  }
}
