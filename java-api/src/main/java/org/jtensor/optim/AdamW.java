package org.jtensor.optim;

import java.util.Collection;
import java.util.List;
import org.jtensor.Tensor;

/** Adam with decoupled weight decay (torch.optim.AdamW; weight decay 0.01 by default). */
public final class AdamW extends Adam {
  public AdamW(List<Tensor> params, double lr) {
    this(params, lr, 0.01);
  }

  public AdamW(List<Tensor> params, double lr, double weightDecay) {
    this(params, lr, 0.9, 0.999, 1e-8, weightDecay);
  }

  public AdamW(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay) {
    this(params, lr, beta1, beta2, eps, weightDecay, false, false);
  }

  /** PyTorch's AdamW(params, lr, betas, eps, weight_decay, amsgrad, maximize). */
  public AdamW(List<Tensor> params, double lr, double beta1, double beta2, double eps, double weightDecay, boolean amsgrad, boolean maximize) {
    super(ParamGroups.single("AdamW", params), lr, beta1, beta2, eps, weightDecay, amsgrad, maximize, true);
  }

  /** Parameter groups (see {@link ParamGroup}): a group's own lr, betas, eps, weight_decay, amsgrad, maximize, the constructor's for the rest. */
  public AdamW(Collection<ParamGroup> groups, double lr) {
    this(groups, lr, 0.01);
  }

  public AdamW(Collection<ParamGroup> groups, double lr, double weightDecay) {
    this(groups, lr, 0.9, 0.999, 1e-8, weightDecay);
  }

  public AdamW(Collection<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay) {
    this(groups, lr, beta1, beta2, eps, weightDecay, false, false);
  }

  /** Parameter groups with the defaults of amsgrad and maximize (a group's own "amsgrad" or "maximize" wins). */
  public AdamW(Collection<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay, boolean amsgrad,
      boolean maximize) {
    super(groups, lr, beta1, beta2, eps, weightDecay, amsgrad, maximize, true);
  }
}
