package org.jtensor.optim;

/**
 * The 1cycle policy (torch.optim.lr_scheduler.OneCycleLR, two phases): the rate rises from
 * maxLr / divFactor to maxLr over the first pctStart of totalSteps, then falls to that start /
 * finalDivFactor, by cosine (or linearly); with cycleMomentum, the momentum (SGD's momentum, Adam's
 * β₁) moves the other way between maxMomentum and baseMomentum. PyTorch's defaults: pctStart 0.3,
 * cosine, cycleMomentum on with 0.85 to 0.95, divFactor 25, finalDivFactor 1e4. maxLr is one
 * rate for every parameter group or (a double[]) one per group, as PyTorch's float or list; the
 * momentum is the same for every group.
 */
public final class OneCycleLR extends LRScheduler {
  private final double[] initialLr, maxLr, minLr;  // per group
  private final double baseMomentum, maxMomentum;
  private final int totalSteps;
  private final double phaseEnd;
  private final boolean cosine, cycleMomentum;

  public OneCycleLR(Optimizer optimizer, double maxLr, int totalSteps) {
    this(optimizer, maxLr, totalSteps, 0.3, "cos", true, 0.85, 0.95, 25, 1e4);
  }

  public OneCycleLR(Optimizer optimizer, double[] maxLr, int totalSteps) {
    this(optimizer, maxLr, totalSteps, 0.3, "cos", true, 0.85, 0.95, 25, 1e4);
  }

  public OneCycleLR(Optimizer optimizer, double maxLr, int totalSteps, double pctStart, String annealStrategy, boolean cycleMomentum,
                    double baseMomentum, double maxMomentum, double divFactor, double finalDivFactor) {
    this(optimizer, everyGroup(optimizer, maxLr), totalSteps, pctStart, annealStrategy, cycleMomentum, baseMomentum, maxMomentum, divFactor,
        finalDivFactor);
  }

  /** One maxLr per parameter group, in order. */
  public OneCycleLR(Optimizer optimizer, double[] maxLr, int totalSteps, double pctStart, String annealStrategy, boolean cycleMomentum,
                    double baseMomentum, double maxMomentum, double divFactor, double finalDivFactor) {
    super(optimizer);
    if (maxLr == null || maxLr.length != groupCount()) {
      throw new IllegalArgumentException("OneCycleLR(): max_lr must have the same length as optimizer.param_groups. max_lr has "
          + (maxLr == null ? 0 : maxLr.length) + " values, param_groups has " + groupCount() + ".");
    }
    if (totalSteps <= 0) throw new IllegalArgumentException("OneCycleLR(): Expected positive integer total_steps, but got " + totalSteps);
    if (!(pctStart >= 0 && pctStart <= 1)) {
      throw new IllegalArgumentException("OneCycleLR(): Expected float between 0 and 1 pct_start, but got " + pctStart);
    }
    if (!"cos".equals(annealStrategy) && !"linear".equals(annealStrategy)) {
      throw new IllegalArgumentException("OneCycleLR(): anneal_strategy must be one of 'cos' or 'linear', instead got " + annealStrategy);
    }
    for (double max : maxLr) {
      if (!(max > 0) || Double.isInfinite(max) || !(divFactor > 0) || !(finalDivFactor > 0)) {
        throw new IllegalArgumentException("OneCycleLR(): max_lr, div_factor and final_div_factor must be positive and finite, got " + max
            + ", " + divFactor + ", " + finalDivFactor);
      }
    }
    this.maxLr = maxLr.clone();
    this.initialLr = new double[maxLr.length];
    this.minLr = new double[maxLr.length];
    for (int g = 0; g < maxLr.length; g++) {
      initialLr[g] = maxLr[g] / divFactor;
      minLr[g] = initialLr[g] / finalDivFactor;
    }
    this.totalSteps = totalSteps;
    this.phaseEnd = pctStart * totalSteps - 1;
    this.cosine = annealStrategy.equals("cos");
    this.cycleMomentum = cycleMomentum;
    this.baseMomentum = baseMomentum;
    this.maxMomentum = maxMomentum;
    start();  // sets the momentum first: an optimizer without one refuses before the rate changes
    for (int g = 0; optimizer instanceof AbstractOptimizer a && g < maxLr.length; g++) {  // the entries PyTorch's OneCycleLR writes, for its resume
      java.util.Map<String, Object> keys = new java.util.LinkedHashMap<>();
      keys.put("max_lr", maxLr[g]);
      keys.put("min_lr", minLr[g]);
      if (cycleMomentum) {
        keys.put("max_momentum", maxMomentum);
        keys.put("base_momentum", baseMomentum);
      }
      a.setScheduleGroup(g, initialLr[g], keys);
    }
  }

  /** maxLr for each of the optimizer's groups (one, for a null optimizer: the scheduler refuses it). */
  private static double[] everyGroup(Optimizer optimizer, double maxLr) {
    double[] out = new double[optimizer == null ? 1 : optimizer.paramGroupCount()];
    java.util.Arrays.fill(out, maxLr);
    return out;
  }

  /**
   * PyTorch's OneCycleLR state: total_steps, its two phases (their ends and the group entries they run between), the
   * anneal and momentum flags; use_beta1 ("betas" in the optimizer's defaults) only with cycle_momentum, as PyTorch
   * sets it only then.
   */
  @Override
  protected java.util.Map<String, Object> arguments() {
    java.util.Map<String, Object> args = SchedulerState.entries("total_steps", (long) totalSteps, "_schedule_phases", java.util.List.of(
            phase(phaseEnd, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
            phase((long) totalSteps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")),
        "_anneal_func_type", cosine ? "cos" : "linear", "cycle_momentum", cycleMomentum);
    if (cycleMomentum) args.put("use_beta1", optimizer instanceof Adam);
    return args;
  }

  private static java.util.Map<String, Object> phase(Object endStep, String startLr, String endLr, String startMomentum, String endMomentum) {
    return SchedulerState.entries("end_step", endStep, "start_lr", startLr, "end_lr", endLr, "start_momentum", startMomentum,
        "end_momentum", endMomentum);
  }

  /** PyTorch's base_lrs for OneCycleLR: each group's initial_lr, max_lr / div_factor. */
  @Override
  java.util.List<Double> stateBaseLrs() {
    java.util.List<Double> out = new java.util.ArrayList<>();
    for (double b : initialLr) out.add(b);
    return out;
  }

  @Override
  public double lrAt(int group, int epoch) {
    return phase(epoch, initialLr[group], maxLr[group], minLr[group]);
  }

  /** The momentum at epoch: maxMomentum down to baseMomentum while the rate rises, then back. */
  public double momentumAt(int epoch) {
    return phase(epoch, maxMomentum, baseMomentum, maxMomentum);
  }

  @Override
  protected void apply(int epoch) {
    if (epoch > totalSteps) {
      throw new IllegalStateException("OneCycleLR.step(): Tried to step " + epoch + " times. The specified number of total steps is "
          + totalSteps);
    }
    if (cycleMomentum) optimizer.setMomentum(momentumAt(epoch));
    super.apply(epoch);
  }

  /** from → peak over [0, phaseEnd], peak → to over [phaseEnd, totalSteps − 1], as PyTorch's _anneal_func. */
  private double phase(int step, double from, double peak, double to) {
    double start = 0, end = phaseEnd, a = from, b = peak;
    if (step > phaseEnd) {
      start = phaseEnd;
      end = totalSteps - 1;
      a = peak;
      b = to;
    }
    double pct = end == start ? 1 : (step - start) / (end - start);
    return cosine ? b + (a - b) / 2 * (Math.cos(Math.PI * pct) + 1) : (b - a) * pct + a;
  }
}
