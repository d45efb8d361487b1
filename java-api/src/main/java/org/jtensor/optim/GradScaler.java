package org.jtensor.optim;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.ops.DataOps;

/**
 * Loss scaling for float16 training (torch.amp.GradScaler): a float16 activation's gradient that
 * would underflow to 0 survives when the loss is first multiplied by a large scale; the gradients
 * are divided by it again before the optimizer's step. A step whose gradients hold an inf or NaN
 * (the scale was too large) is skipped and the scale shrinks; after {@code growthInterval} steps in
 * a row without one it grows. The parameters stay float32, as PyTorch asks (their float16 gradients
 * are refused). The loop, as PyTorch's:
 * <pre>{@code
 * GradScaler scaler = new GradScaler();
 * for (...) {
 *   opt.zeroGrad();
 *   try (Autocast a = Autocast.enable(device, DType.FLOAT16)) { loss = lossOf(model.forward(x), y); }
 *   scaler.scale(loss).backward();
 *   scaler.step(opt);   // unscales (unless unscale_ ran, e.g. to clip gradients first), steps unless inf/NaN
 *   scaler.update();    // the next scale
 * }
 * }</pre>
 * bfloat16, with float32's range, needs no scaler. The scale is a float32, as PyTorch's, and the
 * checks follow PyTorch's order and messages.
 *
 * <p>One scaler may serve optimizers stepped on several threads: its scale and its record of each
 * optimizer are read and changed under its lock (PyTorch's, behind the GIL, are never raced); the
 * optimizers' own steps run outside it.
 */
public final class GradScaler {
  /** Where an optimizer is between two update() calls (PyTorch's OptState). */
  private enum Stage { READY, UNSCALED, STEPPED }

  private static final class OptimizerState {
    Stage stage = Stage.READY;
    boolean foundInf, checked;
  }

  private final boolean enabled;
  private float scale;
  // doubles, as PyTorch's: _amp_update_scale_ multiplies the float32 scale by the double factor (1.1 as float32 grew 3 to 3.3000002, not 3.3)
  private double growthFactor, backoffFactor;
  private int growthInterval, growthTracker;
  private final Map<Optimizer, OptimizerState> states = new IdentityHashMap<>();

  /** PyTorch's defaults: scale 2^16, growth 2 after 2000 clean steps, backoff 0.5. */
  public GradScaler() {
    this(65536.0, 2.0, 0.5, 2000, true);
  }

  public GradScaler(double initScale, double growthFactor, double backoffFactor, int growthInterval, boolean enabled) {
    if (!(growthFactor > 1.0)) throw new IllegalArgumentException("GradScaler(): The growth factor must be > 1.0, got " + growthFactor);
    if (!(backoffFactor < 1.0)) throw new IllegalArgumentException("GradScaler(): The backoff factor must be < 1.0, got " + backoffFactor);
    if (growthInterval <= 0) throw new IllegalArgumentException("GradScaler(): growth_interval must be positive, got " + growthInterval);
    this.enabled = enabled;
    this.scale = (float) initScale;
    this.growthFactor = growthFactor;
    this.backoffFactor = backoffFactor;
    this.growthInterval = growthInterval;
  }

  public boolean isEnabled() {
    return enabled;
  }

  /** The current scale; 1 when disabled (PyTorch's get_scale()). */
  public synchronized double getScale() {
    return enabled ? scale : 1.0;
  }

  /**
   * outputs times the scale, as a new tensor the caller owns (recorded: backward flows through it).
   * Disabled, a view of outputs (PyTorch returns outputs itself; a new handle keeps ownership plain).
   */
  public Tensor scale(Tensor outputs) {
    if (outputs == null) throw new IllegalArgumentException("GradScaler.scale(): outputs must not be null");
    if (!enabled) return outputs.view(outputs.shape());
    if (!outputs.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException("GradScaler.scale(): outputs must be floating point, got " + outputs.dtype());
    }
    // PyTorch multiplies by its scale, a 0-dim float32 tensor: a 0-dim float16 loss is scaled in float32 (65536 overflows float16)
    try (Tensor s = Tensor.full(new long[0], getScale(), DType.FLOAT32, outputs.device())) {
      return outputs.mul(s);
    }
  }

  /**
   * Divides the gradients of opt's parameters by the scale, in place, and notes whether any holds
   * an inf or NaN: once between two update() calls, before step() (to clip the true gradients,
   * call it, then clip, then step).
   */
  public synchronized void unscale_(Optimizer opt) {
    if (!enabled) return;
    OptimizerState st = state(opt);
    if (st.stage == Stage.UNSCALED) throw new IllegalStateException("unscale_() has already been called on this optimizer since the last update().");
    if (st.stage == Stage.STEPPED) throw new IllegalStateException("unscale_() is being called after step().");
    for (Tensor p : opt.parameters()) {  // checked whole before any gradient changes
      try (Tensor g = p.grad()) {
        if (g != null && g.dtype() == DType.FLOAT16) {
          throw new IllegalArgumentException("GradScaler.unscale_(): Attempting to unscale FP16 gradients.");
        }
        if (g != null) DataOps.checkWritable("GradScaler.unscale_", g);  // divided in place: refused before any is divided
      }
    }
    float inv = (float) (1.0 / (double) scale);  // PyTorch: the scale's reciprocal in double, then float32
    boolean found = false, any = false;
    try (GradMode.Scope off = GradMode.noGrad()) {
      for (Tensor p : opt.parameters()) {
        try (Tensor g = p.grad()) {
          if (g == null) continue;
          any = true;
          try (Tensor finite = g.isfinite(); Tensor all = finite.all()) {
            if (all.item() == 0) found = true;
          }
          g.mul_(inv);
        }
      }
    }
    st.foundInf = found;
    st.checked = any;
    st.stage = Stage.UNSCALED;
  }

  /**
   * Unscales opt's gradients (unless unscale_ did) and runs opt.step() unless one of them held an inf
   * or NaN. Returns whether the optimizer stepped. Once between two update() calls.
   */
  public boolean step(Optimizer opt) {
    if (!enabled) {
      opt.step();
      return true;
    }
    synchronized (this) {  // the optimizer's own step runs outside: optimizers on other threads step at once
      OptimizerState st = state(opt);
      if (st.stage == Stage.STEPPED) throw new IllegalStateException("step() has already been called since the last update().");
      if (st.stage == Stage.READY) unscale_(opt);
      if (!st.checked) throw new IllegalStateException("GradScaler.step(): No inf checks were recorded for this optimizer (no parameter has a gradient).");
      st.stage = Stage.STEPPED;
      if (st.foundInf) return false;
    }
    opt.step();
    return true;
  }

  /**
   * The next scale: times backoffFactor if any optimizer's gradients held an inf or NaN since the
   * last update, times growthFactor after growthInterval clean updates in a row (kept when the
   * product is not finite). Then every optimizer is ready for the next iteration.
   */
  public synchronized void update() {
    if (!enabled) return;
    boolean found = false, checked = false;
    for (OptimizerState st : states.values()) {
      found |= st.foundInf;
      checked |= st.checked;
    }
    // PyTorch counts the found_inf of unscale_ calls that checked a gradient: a step or unscale_ that failed is no clean step
    if (!checked) throw new IllegalStateException("GradScaler.update(): No inf checks were recorded prior to update.");
    if (found) {
      scale = (float) (scale * backoffFactor);
      growthTracker = 0;
    } else if (growthTracker + 1 == growthInterval) {
      float grown = (float) (scale * growthFactor);
      if (Float.isFinite(grown)) scale = grown;
      growthTracker = 0;
    } else {
      growthTracker++;
    }
    states.clear();
  }

  /** Sets the scale to newScale (PyTorch's update(new_scale)); every optimizer is ready again. */
  public synchronized void update(double newScale) {
    if (!enabled) return;
    scale = (float) newScale;
    states.clear();
  }

  /** PyTorch's state_dict(): scale, growth_factor, backoff_factor, growth_interval, _growth_tracker; empty when disabled. */
  public synchronized Map<String, Object> stateDict() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (!enabled) return m;
    m.put("scale", (double) scale);
    m.put("growth_factor", growthFactor);
    m.put("backoff_factor", backoffFactor);
    m.put("growth_interval", (long) growthInterval);
    m.put("_growth_tracker", (long) growthTracker);
    return m;
  }

  /** Restores a state from stateDict() or from PyTorch's; checked whole before anything changes. */
  public synchronized void loadStateDict(Map<String, Object> state) {
    if (!enabled) throw new IllegalStateException("GradScaler.loadStateDict(): Attempting to load state into a disabled GradScaler.");
    if (state == null || state.isEmpty()) {
      throw new IllegalArgumentException("GradScaler.loadStateDict(): The source state dict is empty, possibly because it was saved from a "
          + "disabled instance of GradScaler.");
    }
    double s = number(state, "scale"), g = number(state, "growth_factor"), b = number(state, "backoff_factor");
    double interval = number(state, "growth_interval"), tracker = number(state, "_growth_tracker");
    if (!(g > 1.0) || !(b < 1.0) || interval < 1 || interval != Math.rint(interval) || tracker < 0 || tracker != Math.rint(tracker)) {
      throw new IllegalArgumentException("GradScaler.loadStateDict(): invalid state " + state);
    }
    scale = (float) s;
    growthFactor = g;
    backoffFactor = b;
    growthInterval = (int) interval;
    growthTracker = (int) tracker;
  }

  private static double number(Map<String, Object> state, String key) {
    Object v = state.get(key);
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException("GradScaler.loadStateDict(): expected a number for '" + key + "', got " + (v == null ? "none" : v));
    }
    return n.doubleValue();
  }

  private OptimizerState state(Optimizer opt) {
    if (opt == null) throw new IllegalArgumentException("GradScaler: optimizer must not be null");
    return states.computeIfAbsent(opt, o -> new OptimizerState());
  }
}
