package org.jtensor.optim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A learning-rate schedule (torch.optim.lr_scheduler): each parameter group's initialLr(group) (its
 * rate when the first scheduler was made) is that group's base; each {@link #step()} advances one epoch
 * (or one step, as the loop calls it) and sets every group's rate to {@link #lrAt(int, int)} the new epoch. Each schedule is
 * stated in closed form, so a resumed run sets the same rates from the epoch alone. One scheduler
 * (or a SequentialLR) per optimizer gives PyTorch's rates; two stepping one optimizer at once do not
 * compound as PyTorch's recursive forms do (each sets its own rate from initialLr).
 *
 * <p>{@link #stateDict()} is PyTorch's scheduler state dict (its arguments under PyTorch's names, then
 * base_lrs, last_epoch and the counters PyTorch keeps), so torch.load and PyTorch's load_state_dict
 * take it; {@link #loadStateDict} takes PyTorch's or jtensor's and resumes at its last_epoch.
 */
public abstract class LRScheduler {
  protected final Optimizer optimizer;
  private final double[] baseLrs;  // per group
  private int epoch;

  protected LRScheduler(Optimizer optimizer) {
    if (optimizer == null) throw new IllegalArgumentException(getClass().getSimpleName() + "(): expected an Optimizer, got null");
    this.optimizer = optimizer;
    this.baseLrs = new double[optimizer.paramGroupCount()];
    // PyTorch's schedulers that check their arguments do so before group.setdefault('initial_lr'): fixed in start(), once made
    for (int g = 0; g < baseLrs.length; g++) baseLrs[g] = optimizer instanceof AbstractOptimizer a ? a.peekInitialLr(g) : optimizer.initialLr(g);
  }

  /** A group's base rate: its initial_lr. */
  protected final double baseLr(int group) {
    return baseLrs[group];
  }

  /** The number of parameter groups the schedule sets. */
  protected final int groupCount() {
    return baseLrs.length;
  }

  /** Sets the epoch-0 rate, as PyTorch's schedulers do when made; subclasses call it last in their constructor. */
  protected final void start() {
    apply(0);
    if (optimizer instanceof AbstractOptimizer a) for (int g = 0; g < baseLrs.length; g++) a.fixInitialLr(g, baseLrs[g]);
  }

  /**
   * Sets what this schedule sets at epoch: the learning rate (OneCycleLR also the momentum). A
   * schedule may give a negative rate (StepLR with a negative gamma, OneCycleLR's linear tail), which
   * PyTorch's schedulers set as they compute it; Optimizer.setLr refuses those from a caller.
   */
  protected void apply(int epoch) {
    List<Double> lrs = lrsAt(epoch);  // all computed (and checked) before any is set
    for (int g = 0; g < lrs.size(); g++) {
      if (optimizer instanceof AbstractOptimizer a) a.setScheduledLr(g, lrs.get(g));
      else optimizer.setLr(g, lrs.get(g));
    }
  }

  /** Every group's rate at epoch, refusing NaN. */
  final List<Double> lrsAt(int epoch) {
    List<Double> lrs = new java.util.ArrayList<>();
    for (int g = 0; g < baseLrs.length; g++) {
      double lr = lrAt(g, epoch);
      if (Double.isNaN(lr)) {
        throw new IllegalArgumentException(getClass().getSimpleName() + "(): the schedule gives a learning rate of NaN at epoch " + epoch
            + " (from its arguments and the base rate " + baseLrs[g] + " of group " + g + ")");
      }
      lrs.add(lr);
    }
    return lrs;
  }

  /** The rate this schedule gives group 0 at epoch (0: as made). */
  public final double lrAt(int epoch) {
    return lrAt(0, epoch);
  }

  /** The rate this schedule gives a group at epoch (0: as made), from that group's base rate. */
  public abstract double lrAt(int group, int epoch);

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

  /** This schedule's arguments under PyTorch's names, in its state dict's order (LambdaLR has none). */
  protected Map<String, Object> arguments() {
    return new LinkedHashMap<>();
  }

  /** The rates PyTorch's state lists as base_lrs: each group's initial rate (OneCycleLR's are its own starts). */
  List<Double> stateBaseLrs() {
    List<Double> out = new java.util.ArrayList<>();
    for (double b : baseLrs) out.add(b);
    return out;
  }

  /** Entries PyTorch's state holds after the counters (LambdaLR's lr_lambdas). */
  void putTrailing(Map<String, Object> state) {}

  /** PyTorch's state_dict(): the arguments, base_lrs, last_epoch, _step_count, the flags and _last_lr, in PyTorch's order. */
  public final Map<String, Object> stateDict() {
    return stateDictAt(epoch, lrsAt(epoch));
  }

  /** The state PyTorch's scheduler holds at lastEpoch (-1: a SequentialLR's scheduler not reached yet), having set lastLrs. */
  Map<String, Object> stateDictAt(int lastEpoch, List<Double> lastLrs) {
    Map<String, Object> state = arguments();
    state.put("base_lrs", stateBaseLrs());
    state.put("last_epoch", (long) lastEpoch);
    state.put("_step_count", (long) Math.max(lastEpoch, 0) + 1);
    state.put("_is_initial", false);
    state.put("_get_lr_called_within_step", false);
    state.put("_last_lr", lastLrs);
    putTrailing(state);
    return state;
  }

  /**
   * Resumes at the state's last_epoch and sets its rate. The state is PyTorch's state_dict() of the
   * same schedule (or this class's): its arguments and base_lrs must be this scheduler's, checked
   * whole before anything changes; entries PyTorch adds beyond them are ignored.
   */
  public final void loadStateDict(Map<String, Object> state) {
    String op = getClass().getSimpleName() + ".loadStateDict";
    int last = checkState(op, "the state", SchedulerState.requireMap(op, state), 0);
    try {
      setLastEpoch(last);
    } catch (IllegalStateException | IllegalArgumentException e) {  // refused before anything was set
      throw new IllegalArgumentException(op + "(): the state's last_epoch " + last + " does not fit this schedule: " + e.getMessage(), e);
    }
  }

  /** Checks a state against this schedule (where names it in messages) and returns its last_epoch, at least minEpoch. */
  int checkState(String op, String where, Map<?, ?> state, int minEpoch) {
    String kind = getClass().getSimpleName();
    SchedulerState.checkSame(op, where, state, arguments(), kind);
    SchedulerState.checkSame(op, where, state, Map.of("base_lrs", stateBaseLrs()), kind);
    return SchedulerState.wholeNumber(op, where, state, "last_epoch", minEpoch);
  }

  /** Group 0's rate now. */
  public final double lastLr() {
    return optimizer.lr();
  }

  /** PyTorch's get_last_lr(): the rate of each parameter group, in order. */
  public final List<Double> getLastLr() {
    return lastLrs(optimizer);
  }

  static List<Double> lastLrs(Optimizer optimizer) {
    List<Double> out = new java.util.ArrayList<>();
    for (int g = 0; g < optimizer.paramGroupCount(); g++) out.add(optimizer.lr(g));
    return out;
  }
}
