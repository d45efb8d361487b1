package org.jtensor.optim;

import java.util.List;
import java.util.Map;

/**
 * torch.optim.lr_scheduler.ReduceLROnPlateau: multiplies the optimizer's rate by factor once a
 * metric has not improved for more than patience steps, then waits cooldown steps before counting
 * again; never below minLr, and no change smaller than eps. An improvement beats the best by more
 * than threshold, relative ("rel": best·(1 ∓ threshold)) or absolute ("abs": best ∓ threshold).
 * Unlike the closed-form schedules it depends on the metrics seen, so it is not an LRScheduler.
 * Every parameter group's rate is lowered, each no lower than its own minLr: one for all groups, or
 * (a double[]) one per group, as PyTorch's float or list.
 */
public final class ReduceLROnPlateau {
  private final Optimizer optimizer;
  private final boolean max, relative;
  private final double factor, threshold, eps;
  private final double[] minLrs;  // per group
  private final Double defaultMinLr;  // PyTorch's default_min_lr: the float given, None for a list
  private final int patience, cooldown;
  private double best;
  private int badEpochs, cooldownLeft, lastEpoch;

  /** PyTorch's defaults: mode "min", factor 0.1, patience 10, threshold 1e-4 "rel", cooldown 0, minLr 0, eps 1e-8. */
  public ReduceLROnPlateau(Optimizer optimizer) {
    this(optimizer, "min", 0.1, 10, 1e-4, "rel", 0, 0.0, 1e-8);
  }

  public ReduceLROnPlateau(Optimizer optimizer, String mode, double factor, int patience, double threshold, String thresholdMode,
                           int cooldown, double minLr, double eps) {
    this(optimizer, mode, factor, patience, threshold, thresholdMode, cooldown, minLr, null, eps);
  }

  /** One minLr per parameter group, in order. */
  public ReduceLROnPlateau(Optimizer optimizer, String mode, double factor, int patience, double threshold, String thresholdMode,
                           int cooldown, double[] minLrs, double eps) {
    this(optimizer, mode, factor, patience, threshold, thresholdMode, cooldown, null, minLrs, eps);
  }

  private ReduceLROnPlateau(Optimizer optimizer, String mode, double factor, int patience, double threshold, String thresholdMode,
                            int cooldown, Double minLr, double[] minLrs, double eps) {
    String name = "ReduceLROnPlateau()";
    if (optimizer == null) throw new IllegalArgumentException(name + ": expected an Optimizer, got null");
    if (!"min".equals(mode) && !"max".equals(mode)) throw new IllegalArgumentException(name + ": mode " + mode + " is unknown!");
    if (!"rel".equals(thresholdMode) && !"abs".equals(thresholdMode)) {
      throw new IllegalArgumentException(name + ": threshold mode " + thresholdMode + " is unknown!");
    }
    if (!(factor < 1.0)) throw new IllegalArgumentException(name + ": Factor should be < 1.0.");
    int groups = optimizer.paramGroupCount();
    if (minLr == null && (minLrs == null || minLrs.length != groups)) {
      throw new IllegalArgumentException(name + ": expected " + groups + " min_lrs, got " + (minLrs == null ? 0 : minLrs.length));
    }
    this.minLrs = minLr != null ? new double[groups] : minLrs.clone();
    if (minLr != null) java.util.Arrays.fill(this.minLrs, minLr);
    boolean negative = false;
    for (double m : this.minLrs) negative |= !(m >= 0);
    if (patience < 0 || cooldown < 0 || negative) {
      throw new IllegalArgumentException(name + ": patience, cooldown and min_lr must be non-negative");
    }
    this.defaultMinLr = minLr;
    this.optimizer = optimizer;
    this.max = "max".equals(mode);
    this.relative = "rel".equals(thresholdMode);
    this.factor = factor;
    this.patience = patience;
    this.threshold = threshold;
    this.cooldown = cooldown;
    this.eps = eps;
    this.best = max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
  }

  /** One epoch's metric (a validation loss, say): counts it against the best and lowers the rate when it is due. */
  public void step(double metric) {
    lastEpoch++;
    if (better(metric)) {
      best = metric;
      badEpochs = 0;
    } else {
      badEpochs++;
    }
    if (cooldownLeft > 0) {
      cooldownLeft--;
      badEpochs = 0;  // bad epochs in cooldown do not count
    }
    if (badEpochs > patience) {
      for (int g = 0; g < minLrs.length; g++) {
        double old = optimizer.lr(g), lowered = Math.max(old * factor, minLrs[g]);
        if (old - lowered > eps) optimizer.setLr(g, lowered);
      }
      cooldownLeft = cooldown;
      badEpochs = 0;
    }
  }

  private boolean better(double a) {
    if (Double.isNaN(a)) return false;
    if (relative) return max ? a > best * (threshold + 1) : a < best * (1 - threshold);
    return max ? a > best + threshold : a < best - threshold;
  }

  /** Every parameter group's rate now (PyTorch's get_last_lr). */
  public List<Double> getLastLr() {
    return LRScheduler.lastLrs(optimizer);
  }

  public int lastEpoch() {
    return lastEpoch;
  }

  /** PyTorch's state_dict(), in its order: the arguments, then last_epoch, _last_lr, the mode's worst value, best and the counters. */
  public Map<String, Object> stateDict() {
    Map<String, Object> state = arguments();
    state.put("last_epoch", (long) lastEpoch);
    state.put("_last_lr", getLastLr());
    state.put("mode_worse", max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    state.putAll(modeArguments());
    state.put("best", best);
    state.put("cooldown_counter", (long) cooldownLeft);
    state.put("num_bad_epochs", (long) badEpochs);
    return state;
  }

  /**
   * Resumes from PyTorch's state_dict() (or this class's): its best metric, bad epochs, cooldown and
   * epoch count. The arguments must be this scheduler's (checked whole before anything changes);
   * the rate is the optimizer's, restored by its own loadStateDict as in PyTorch.
   */
  public void loadStateDict(Map<String, Object> state) {
    String op = "ReduceLROnPlateau.loadStateDict", where = "the state", kind = "ReduceLROnPlateau";
    Map<?, ?> s = SchedulerState.requireMap(op, state);
    Map<String, Object> own = arguments();
    own.remove("default_min_lr");  // newer than min_lrs, which says the same
    SchedulerState.checkSame(op, where, s, own, kind);
    SchedulerState.checkSame(op, where, s, modeArguments(), kind);
    double savedBest = SchedulerState.number(op, where, s, "best");
    if (Double.isNaN(savedBest)) throw new IllegalArgumentException(op + "(): " + where + " has 'best' nan; expected a number");
    int epoch = SchedulerState.wholeNumber(op, where, s, "last_epoch", 0);
    int bad = SchedulerState.wholeNumber(op, where, s, "num_bad_epochs", 0);
    int cool = SchedulerState.wholeNumber(op, where, s, "cooldown_counter", 0);
    best = savedBest;
    lastEpoch = epoch;
    badEpochs = bad;
    cooldownLeft = cool;
  }

  private Map<String, Object> arguments() {
    List<Double> mins = new java.util.ArrayList<>();
    for (double m : minLrs) mins.add(m);
    return SchedulerState.entries("factor", factor, "default_min_lr", defaultMinLr, "min_lrs", mins, "patience", (long) patience,
        "cooldown", (long) cooldown, "eps", eps);
  }

  private Map<String, Object> modeArguments() {
    return SchedulerState.entries("mode", max ? "max" : "min", "threshold", threshold, "threshold_mode", relative ? "rel" : "abs");
  }
}
