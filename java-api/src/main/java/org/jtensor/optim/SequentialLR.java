package org.jtensor.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
  public double lrAt(int group, int epoch) {
    int i = segment(epoch);
    return schedulers.get(i).lrAt(group, epoch - (i == 0 ? 0 : milestones[i - 1]));
  }

  /** What the scheduler of the epoch's segment sets (OneCycleLR's momentum included), at its own epoch. */
  @Override
  protected void apply(int epoch) {
    int i = segment(epoch);
    schedulers.get(i).apply(epoch - (i == 0 ? 0 : milestones[i - 1]));
  }

  /**
   * PyTorch's SequentialLR state: _milestones, last_epoch, _last_lr and each scheduler's own state
   * at its own epoch (the last of its segment once passed; -1 before it is reached, where PyTorch
   * keeps the rate it was made at: this one's first).
   */
  @Override
  Map<String, Object> stateDictAt(int lastEpoch, List<Double> lastLrs) {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("_milestones", milestoneList());
    state.put("last_epoch", (long) lastEpoch);
    state.put("_last_lr", lastLrs);
    List<Object> own = new ArrayList<>();
    for (int i = 0; i < schedulers.size(); i++) {
      int start = i == 0 ? 0 : milestones[i - 1];
      long end = i < milestones.length ? milestones[i] : Long.MAX_VALUE;
      int at = (int) Math.max(Math.min(lastEpoch, end - 1) - start, -1);
      own.add(schedulers.get(i).stateDictAt(at, at >= 0 ? schedulers.get(i).lrsAt(at) : lrsAt(0)));
    }
    state.put("_schedulers", own);
    return state;
  }

  /** The milestones must be this one's and each scheduler's state its own (arguments and base rate); the schedulers' epochs follow from last_epoch. */
  @Override
  int checkState(String op, String where, Map<?, ?> state, int minEpoch) {
    SchedulerState.checkSame(op, where, state, Map.of("_milestones", milestoneList()), "SequentialLR");
    if (!(state.get("_schedulers") instanceof List<?> saved)) {
      throw new IllegalArgumentException(op + "(): " + where + " has " + (state.containsKey("_schedulers") ? "'_schedulers' "
          + SchedulerState.repr(state.get("_schedulers")) : "no '_schedulers'") + "; expected a list of " + schedulers.size() + " schedulers' states");
    }
    if (saved.size() != schedulers.size()) {
      throw new IllegalArgumentException(op + "(): " + where + " has " + saved.size() + " schedulers' states, this SequentialLR has "
          + schedulers.size() + " schedulers");
    }
    for (int i = 0; i < schedulers.size(); i++) {
      String inner = "the state of scheduler " + i + " (" + schedulers.get(i).getClass().getSimpleName() + ")";
      if (!(saved.get(i) instanceof Map<?, ?> sub)) {
        throw new IllegalArgumentException(op + "(): " + inner + " is " + SchedulerState.repr(saved.get(i)) + "; expected a scheduler's state dict");
      }
      schedulers.get(i).checkState(op, inner, sub, -1);
    }
    return SchedulerState.wholeNumber(op, where, state, "last_epoch", minEpoch);
  }

  /** The milestones as PyTorch's state lists them (Python ints). */
  private List<Object> milestoneList() {
    List<Object> ms = new ArrayList<>();
    for (int m : milestones) ms.add((long) m);
    return ms;
  }

  private int segment(int epoch) {
    int i = 0;
    while (i < milestones.length && epoch >= milestones[i]) i++;
    return i;
  }
}
