package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Tensor;

/**
 * RMSprop (torch.optim.RMSprop): v ← αv + (1−α)g², p ← p − lr·g / (√v + ε); centered subtracts the
 * square of the gradient's running mean from v first, momentum accumulates the steps in a buffer.
 * State by PyTorch's names: step, square_avg, momentum_buffer (momentum &gt; 0), grad_avg (centered).
 * Group options: lr, momentum, alpha, eps, centered, weight_decay, maximize.
 */
public final class RMSprop extends AbstractOptimizer {
  private final Tensor[] squareAvg, buffer, gradAvg;
  private final long[] steps;

  public RMSprop(List<Tensor> params) {
    this(params, 1e-2);
  }

  public RMSprop(List<Tensor> params, double lr) {
    this(ParamGroups.single("RMSprop", params), lr);
  }

  public RMSprop(List<Tensor> params, double lr, double alpha, double eps, double weightDecay, double momentum, boolean centered) {
    this(ParamGroups.single("RMSprop", params), lr, alpha, eps, weightDecay, momentum, centered);
  }

  /** Parameter groups (see {@link ParamGroup}); PyTorch's defaults for the rest: alpha 0.99, eps 1e-8, no weight decay, momentum or centering. */
  public RMSprop(Collection<ParamGroup> groups, double lr) {
    this(groups, lr, 0.99, 1e-8, 0, 0, false);
  }

  public RMSprop(Collection<ParamGroup> groups, double lr, double alpha, double eps, double weightDecay, double momentum, boolean centered) {
    super(groups == null ? null : new ArrayList<>(groups), SchedulerState.entries("lr", lr, "momentum", momentum, "alpha", alpha, "eps", eps,
        "centered", centered, "weight_decay", weightDecay, "capturable", false, "foreach", null, "maximize", false, "differentiable", false));
    this.squareAvg = new Tensor[params.size()];  // PyTorch's group keys in its order; the unsupported ones have their one value
    this.buffer = new Tensor[params.size()];
    this.gradAvg = new Tensor[params.size()];
    this.steps = new long[params.size()];
  }

  @Override
  public void setMomentum(double momentum) {
    if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("setMomentum(): expects a momentum in [0, 1), got " + momentum);
    setEverywhere("momentum", old -> momentum);
  }

  @Override
  protected void checkHyperParameters(String name, Map<String, Object> group) {
    super.checkHyperParameters(name, group);
    ParamGroups.requireNonNegative(name, group, "eps", "epsilon");  // PyTorch's order
    ParamGroups.requireNonNegative(name, group, "momentum", "momentum");
    ParamGroups.requireNonNegative(name, group, "weight_decay", "weight_decay");
    ParamGroups.requireNonNegative(name, group, "alpha", "alpha");
  }

  @Override
  protected Map<String, Tensor> stateOf(int i) {
    Map<String, Tensor> s = new LinkedHashMap<>();
    if (steps[i] == 0) return s;
    s.put("step", stepTensor(steps[i]));
    s.put("square_avg", squareAvg[i].detach());
    if (buffer[i] != null) s.put("momentum_buffer", buffer[i].detach());
    if (gradAvg[i] != null) s.put("grad_avg", gradAvg[i].detach());
    return s;
  }

  /** PyTorch makes momentum_buffer and grad_avg with the state only where the group then has momentum or centered. */
  @Override
  protected List<String> stateNames(Map<String, Object> group) {
    List<String> names = new ArrayList<>(List.of("step", "square_avg"));
    if (((Number) group.get("momentum")).doubleValue() > 0) names.add("momentum_buffer");
    if (Boolean.TRUE.equals(group.get("centered"))) names.add("grad_avg");
    return names;
  }

  @Override
  protected void loadState(int i, Map<String, Object> state) {
    steps[i] = state.isEmpty() ? 0 : (Long) state.get("step");
    squareAvg[i] = loaded(squareAvg[i], state.get("square_avg"));
    buffer[i] = loaded(buffer[i], state.get("momentum_buffer"));
    gradAvg[i] = loaded(gradAvg[i], state.get("grad_avg"));
  }

  private Tensor loaded(Tensor old, Object value) {
    if (value != null) return adoptLoaded(old, value);
    drop(old);
    return null;
  }

  @Override
  protected Runnable prepare(int i, Tensor p, Tensor g) {
    double lr = option(i, "lr"), alpha = option(i, "alpha"), eps = option(i, "eps"), momentum = option(i, "momentum");
    double weightDecay = option(i, "weight_decay");
    boolean centered = Boolean.TRUE.equals(optionValue(i, "centered"));
    String missing = steps[i] == 0 ? null : momentum > 0 && buffer[i] == null ? "momentum_buffer" : centered && gradAvg[i] == null ? "grad_avg" : null;
    if (missing != null) {  // momentum set later (OneCycleLR's setMomentum): PyTorch's step fails with a KeyError
      throw new IllegalStateException("RMSprop.step(): the state of parameter " + i + " has no '" + missing + "': it was made before its group's "
          + (missing.equals("grad_avg") ? "centered" : "momentum") + " was set");
    }
    DType dt = p.dtype();
    if (Boolean.TRUE.equals(optionValue(i, "maximize"))) g = g.neg();
    if (weightDecay != 0) g = g.add(p, weightDecay);
    // PyTorch's single-tensor RMSprop op by op: square_avg.mul_(α).addcmul_(grad, grad, value=1-α), grad_avg.lerp_(grad, 1-α),
    // avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_() (or square_avg.sqrt()), avg.add_(eps), each rounded as PyTorch's
    Tensor sq = (squareAvg[i] == null ? Tensor.zerosLike(p) : squareAvg[i].mul(OpMath.scalar(dt, alpha))).addcmul(g, g, 1 - alpha);
    Tensor ga = centered ? OpMath.lerp(gradAvg[i] == null ? Tensor.zerosLike(p) : gradAvg[i], g, 1 - alpha) : null;
    Tensor avg = (centered ? sq.addcmul(ga, ga, -1).sqrt() : sq.sqrt()).add_(OpMath.scalar(dt, eps));
    Tensor buf = null, pNew;
    if (momentum > 0) {  // buf.mul_(momentum).addcdiv_(grad, avg); param.add_(buf, alpha=-lr)
      buf = (buffer[i] == null ? Tensor.zerosLike(p) : buffer[i].mul(OpMath.scalar(dt, momentum))).addcdiv(g, avg, 1);
      pNew = p.add(buf, -lr);
    } else {
      pNew = p.addcdiv(g, avg, -lr);
    }
    long t = steps[i] + 1;
    Tensor b = buf;
    return () -> {
      p.copy_(pNew);
      squareAvg[i] = adopt(squareAvg[i], sq);
      if (ga != null) gradAvg[i] = adopt(gradAvg[i], ga);
      if (b != null) buffer[i] = adopt(buffer[i], b);
      steps[i] = t;
    };
  }
}
