package org.jtensor.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Tensor;

/**
 * One parameter group (an entry of PyTorch's param_groups list): its parameters and the options it
 * sets for them, under PyTorch's names. An option the group leaves out is the optimizer
 * constructor's (PyTorch's defaults):
 *
 * <pre>{@code
 * new AdamW(List.of(
 *     ParamGroup.of(decay).set("weight_decay", 0.1),
 *     ParamGroup.of(noDecay).set("weight_decay", 0.0),
 *     ParamGroup.of(head).lr(1e-3)), 3e-4, 0.01);
 * }</pre>
 *
 * Options by optimizer: SGD's momentum, dampening, weight_decay, nesterov, maximize; Adam's and AdamW's
 * betas (two numbers: a {@code double[]} or a list), eps, weight_decay, amsgrad, maximize; RMSprop's momentum,
 * alpha, eps, centered, weight_decay, maximize; Adagrad's lr_decay, eps, weight_decay, maximize; every optimizer's lr. Each group's
 * options are checked as the constructor checks its arguments, with its messages (PyTorch checks only
 * the defaults). A name the optimizer does not have is kept in the group and its state dict, unused,
 * as PyTorch keeps it. Immutable: set() and lr() return a new group.
 */
public final class ParamGroup {
  private final List<Tensor> params;
  private final Map<String, Object> options;

  private ParamGroup(List<Tensor> params, Map<String, Object> options) {
    this.params = params;
    this.options = Collections.unmodifiableMap(options);
  }

  /** A group of these parameters (held, not owned) with no options of its own. */
  public static ParamGroup of(List<Tensor> params) {
    if (params == null) throw new IllegalArgumentException("ParamGroup.of(): params must not be null");
    return new ParamGroup(Collections.unmodifiableList(new ArrayList<>(params)), new LinkedHashMap<>());
  }

  /** This group with its own learning rate ("lr"). */
  public ParamGroup lr(double lr) {
    return set("lr", lr);
  }

  /** This group with option name (PyTorch's: "weight_decay", "momentum", "betas"...) set to value: a number, a boolean or betas. */
  public ParamGroup set(String name, Object value) {
    if (name == null || name.equals("params")) throw new IllegalArgumentException("ParamGroup.set(): expected an option name, got " + name);
    Map<String, Object> o = new LinkedHashMap<>(options);
    o.put(name, value instanceof double[] d ? List.of(boxed(d)) : value);
    return new ParamGroup(params, o);
  }

  private static Object[] boxed(double[] d) {
    Object[] out = new Object[d.length];
    for (int i = 0; i < d.length; i++) out[i] = d[i];
    return out;
  }

  /** The group's parameters, in order. */
  public List<Tensor> params() {
    return params;
  }

  /** The options this group sets itself (not the optimizer's defaults), by PyTorch's names. */
  public Map<String, Object> options() {
    return options;
  }
}
