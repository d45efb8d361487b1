package org.jtensor.optim;

/**
 * The factor goes linearly from startFactor to endFactor over totalIters epochs, then stays
 * (torch.optim.lr_scheduler.LinearLR; defaults 1/3, 1, 5): a warm-up.
 */
public final class LinearLR extends LRScheduler {
  private final double startFactor, endFactor;
  private final int totalIters;

  public LinearLR(Optimizer optimizer) {
    this(optimizer, 1.0 / 3, 1.0, 5);
  }

  public LinearLR(Optimizer optimizer, double startFactor, double endFactor, int totalIters) {
    super(optimizer);
    if (!(startFactor > 0 && startFactor <= 1)) {
      throw new IllegalArgumentException("LinearLR(): Starting multiplicative factor expected to be greater than 0 and less or equal to 1, "
          + "got " + startFactor);
    }
    if (!(endFactor >= 0 && endFactor <= 1)) {
      throw new IllegalArgumentException("LinearLR(): Ending multiplicative factor expected to be between 0 and 1, got " + endFactor);
    }
    if (totalIters < 0) throw new IllegalArgumentException("LinearLR(): total_iters must be non-negative, got " + totalIters);
    this.startFactor = startFactor;
    this.endFactor = endFactor;
    this.totalIters = totalIters;
    start();
  }

  @Override
  protected java.util.Map<String, Object> arguments() {
    return SchedulerState.entries("start_factor", startFactor, "end_factor", endFactor, "total_iters", (long) totalIters);
  }

  @Override
  public double lrAt(int group, int epoch) {
    double baseLr = baseLr(group);
    if (totalIters == 0) return baseLr * startFactor;  // PyTorch's: the start factor, never moved
    int t = Math.min(epoch, totalIters);
    return baseLr * (startFactor + (endFactor - startFactor) * t / totalIters);
  }
}
