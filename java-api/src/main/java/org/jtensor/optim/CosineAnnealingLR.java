package org.jtensor.optim;

/**
 * lr(t) = ηmin + (ηmax − ηmin)·(1 + cos(π·t / tMax)) / 2 (torch.optim.lr_scheduler.CosineAnnealingLR,
 * its closed form), with ηmax the optimizer's learning rate when the scheduler is made.
 */
public final class CosineAnnealingLR {
  private final Optimizer optimizer;
  private final int tMax;
  private final double etaMin, baseLr;
  private int epoch;

  public CosineAnnealingLR(Optimizer optimizer, int tMax, double etaMin) {
    if (tMax <= 0) throw new IllegalArgumentException("CosineAnnealingLR(): T_max must be positive, got " + tMax);
    this.optimizer = optimizer;
    this.tMax = tMax;
    this.etaMin = etaMin;
    this.baseLr = optimizer.lr();
  }

  public void step() {
    epoch++;
    optimizer.setLr(etaMin + (baseLr - etaMin) * (1 + Math.cos(Math.PI * epoch / tMax)) / 2);
  }
}
