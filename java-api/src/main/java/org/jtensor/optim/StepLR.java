package org.jtensor.optim;

/** Multiplies the learning rate by gamma every stepSize epochs (torch.optim.lr_scheduler.StepLR). */
public final class StepLR extends LRScheduler {
  private final int stepSize;
  private final double gamma;

  public StepLR(Optimizer optimizer, int stepSize, double gamma) {
    super(optimizer);
    if (stepSize <= 0) throw new IllegalArgumentException("StepLR(): step_size must be positive, got " + stepSize);
    this.stepSize = stepSize;
    this.gamma = gamma;
    start();
  }

  @Override
  protected java.util.Map<String, Object> arguments() {
    return SchedulerState.entries("step_size", (long) stepSize, "gamma", gamma);
  }

  @Override
  public double lrAt(int group, int epoch) {
    return baseLr(group) * Math.pow(gamma, epoch / stepSize);
  }
}
