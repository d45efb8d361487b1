package org.jtensor.optim;

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
    super(params, lr, beta1, beta2, eps, weightDecay, true);
  }
}
