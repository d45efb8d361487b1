package org.jtensor.optim;

/**
 * A learning-rate schedule (torch.optim.lr_scheduler): the optimizer's initialLr() (its rate when
 * the first scheduler was made) is the base; each {@link #step()} advances one epoch (or one step, as the
 * loop calls it) and sets the optimizer's rate to {@link #lrAt} the new epoch. Each schedule is
 * stated in closed form, so a resumed run sets the same rates from the epoch alone. One scheduler
 * (or a SequentialLR) per optimizer gives PyTorch's rates; two stepping one optimizer at once do not
 * compound as PyTorch's recursive forms do (each sets its own rate from initialLr).
 */
public abstract class LRScheduler {
  protected final Optimizer optimizer;
  protected final double baseLr;
  private int epoch;

  protected LRScheduler(Optimizer optimizer) {
    if (optimizer == null) throw new IllegalArgumentException(getClass().getSimpleName() + "(): expected an Optimizer, got null");
    this.optimizer = optimizer;
    // PyTorch's schedulers that check their arguments do so before group.setdefault('initial_lr'): fixed in start(), once made
    this.baseLr = optimizer instanceof AbstractOptimizer a ? a.peekInitialLr() : optimizer.initialLr();
  }

  /** Sets the epoch-0 rate, as PyTorch's schedulers do when made; subclasses call it last in their constructor. */
  protected final void start() {
    apply(0);
    if (optimizer instanceof AbstractOptimizer a) a.fixInitialLr(baseLr);
  }

  /**
   * Sets what this schedule sets at epoch: the learning rate (OneCycleLR also the momentum). A
   * schedule may give a negative rate (StepLR with a negative gamma, OneCycleLR's linear tail), which
   * PyTorch's schedulers set as they compute it; Optimizer.setLr refuses those from a caller.
   */
  protected void apply(int epoch) {
    double lr = lrAt(epoch);
    if (Double.isNaN(lr)) {
      throw new IllegalArgumentException(getClass().getSimpleName() + "(): the schedule gives a learning rate of NaN at epoch " + epoch
          + " (from its arguments and the base rate " + baseLr + ")");
    }
    if (optimizer instanceof AbstractOptimizer a) a.setScheduledLr(lr);
    else optimizer.setLr(lr);
  }

  /** The rate this schedule gives at epoch (0: as made). */
  public abstract double lrAt(int epoch);

  public void step() {
    if (epoch == Integer.MAX_VALUE) throw new IllegalStateException(getClass().getSimpleName() + ".step(): the epoch count is at its largest");
    apply(epoch + 1);  // refused (OneCycleLR past its steps): the epoch stays where it was
    epoch++;
  }

  /** The epochs stepped so far (PyTorch's last_epoch). */
  public final int lastEpoch() {
    return epoch;
  }

  /** Jumps to epoch (a resumed run) and sets its rate. */
  public final void setLastEpoch(int epoch) {
    if (epoch < 0) throw new IllegalArgumentException("setLastEpoch(): epoch must be non-negative, got " + epoch);
    apply(epoch);
    this.epoch = epoch;
  }

  public final double lastLr() {
    return optimizer.lr();
  }

  /** PyTorch's get_last_lr(): the rate of each parameter group (jtensor's optimizers have one). */
  public final java.util.List<Double> getLastLr() {
    return java.util.List.of(optimizer.lr());
  }
}
