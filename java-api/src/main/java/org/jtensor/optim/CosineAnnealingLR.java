package org.jtensor.optim;

/**
 * lr(t) = ηmin + (ηmax − ηmin)·(1 + cos(π·t / tMax)) / 2 (torch.optim.lr_scheduler.CosineAnnealingLR,
 * its closed form), with ηmax the optimizer's learning rate when the scheduler is made.
 */
public final class CosineAnnealingLR extends LRScheduler {
  private final int tMax;
  private final double etaMin;

  public CosineAnnealingLR(Optimizer optimizer, int tMax, double etaMin) {
    super(optimizer);
    if (tMax <= 0) throw new IllegalArgumentException("CosineAnnealingLR(): T_max must be positive, got " + tMax);
    this.tMax = tMax;
    this.etaMin = etaMin;
    start();
  }

  @Override
  protected java.util.Map<String, Object> arguments() {
    return SchedulerState.entries("T_max", (long) tMax, "eta_min", etaMin);
  }

  @Override
  public double lrAt(int group, int epoch) {
    return etaMin + (baseLr(group) - etaMin) * (1 + Math.cos(Math.PI * epoch / tMax)) / 2;
  }
}
