package org.jtensor.optim;

import java.util.List;

/**
 * Schedulers in turn (torch.optim.lr_scheduler.SequentialLR): scheduler i runs from milestone
 * i − 1 (0 for the first), counting its own epochs from 0 there; e.g. LinearLR warm-up for 100
 * steps then CosineAnnealingLR: {@code new SequentialLR(opt, List.of(warm, cosine), new int[] {100})}.
 * Every scheduler must drive this optimizer.
 */
public final class SequentialLR extends LRScheduler {
  private final List<LRScheduler> schedulers;
  private final int[] milestones;

  public SequentialLR(Optimizer optimizer, List<LRScheduler> schedulers, int[] milestones) {
    super(optimizer);
    if (schedulers == null || schedulers.isEmpty()) throw new IllegalArgumentException("SequentialLR(): expects at least one scheduler");
    if (milestones == null) throw new IllegalArgumentException("SequentialLR(): milestones must not be null");
    for (LRScheduler sc : schedulers) if (sc == null) throw new IllegalArgumentException("SequentialLR(): a scheduler is null");
    if (milestones.length != schedulers.size() - 1) {
      throw new IllegalArgumentException("SequentialLR(): Sequential Schedulers expects number of schedulers provided to be one more than the "
          + "number of milestone points, but got number of schedulers " + schedulers.size() + " and the number of milestones to be equal to "
          + milestones.length);
    }
    for (int i = 0; i < schedulers.size(); i++) {
      if (schedulers.get(i).optimizer != optimizer) {
        throw new IllegalArgumentException("SequentialLR(): Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
            + "got scheduler " + i + " with a different one");
      }
      if (i > 0 && milestones[i - 1] < (i > 1 ? milestones[i - 2] : 0)) {
        throw new IllegalArgumentException("SequentialLR(): milestones must not decrease, got " + java.util.Arrays.toString(milestones));
      }
    }
    this.schedulers = List.copyOf(schedulers);
    this.milestones = milestones.clone();
    start();
  }

  @Override
  public double lrAt(int epoch) {
    int i = segment(epoch);
    return schedulers.get(i).lrAt(epoch - (i == 0 ? 0 : milestones[i - 1]));
  }

  /** What the scheduler of the epoch's segment sets (OneCycleLR's momentum included), at its own epoch. */
  @Override
  protected void apply(int epoch) {
    int i = segment(epoch);
    schedulers.get(i).apply(epoch - (i == 0 ? 0 : milestones[i - 1]));
  }

  private int segment(int epoch) {
    int i = 0;
    while (i < milestones.length && epoch >= milestones[i]) i++;
    return i;
  }
}
