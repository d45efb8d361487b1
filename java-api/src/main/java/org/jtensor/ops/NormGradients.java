package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.dispatch.plan.NormGroups;

/**
 * Normalization's gradients in differentiable Tensor ops: what the backward kernel computes, used
 * when the gradient is itself differentiated (createGraph; PyTorch's *_double_backward). The
 * statistics are recomputed from x so that they carry x's graph, unless they were given (fixed).
 */
final class NormGradients {
  private NormGradients() {}

  static Tensor[] differentiable(Gradient.Context c, Tensor grad, NormGroups g, boolean fixed, double eps, Tensor x, Tensor w,
                                 Tensor mean, Tensor rstd) {
    // [n, c, s] reduced over {0, 2} by channel; [n, groups, c/groups, s] over {2, 3} by group.
    long[] shape = g.byChannel() ? new long[] {g.n(), g.c(), g.s()} : new long[] {g.n(), g.groups(), g.c() / g.groups(), g.s()};
    long[] channels = g.byChannel() ? new long[] {1, g.c(), 1} : new long[] {1, g.groups(), g.c() / g.groups(), 1};
    long[] statShape = g.byChannel() ? new long[] {1, g.c(), 1} : new long[] {g.n(), g.groups(), 1, 1};
    int[] statDims = g.byChannel() ? new int[] {0, 2} : new int[] {2, 3};
    int[] channelSum = g.byChannel() ? new int[] {0, 2} : new int[] {0, 3};
    Tensor xs = x.reshape(shape), gs = grad.reshape(shape);
    Tensor mu, r;
    if (fixed) {
      mu = mean.reshape(statShape);
      r = rstd.reshape(statShape);
    } else {
      mu = xs.mean(statDims, true);
      r = xs.var(statDims, 0, true).add(eps).rsqrt();
    }
    Tensor xhat = xs.sub(mu).mul(r);
    Tensor gw = w == null ? gs : gs.mul(w.reshape(channels));
    Tensor dx = null;
    if (c.needs(0)) {
      dx = fixed ? gw.mul(r)
                 : gw.sub(gw.mean(statDims, true)).sub(xhat.mul(gw.mul(xhat).mean(statDims, true))).mul(r);
      dx = dx.reshape(x.shape());
    }
    Tensor dw = c.needs(1) ? gs.mul(xhat).sum(channelSum, false).reshape(c.inputShape(1)) : null;
    Tensor db = c.needs(2) ? gs.sum(channelSum, false).reshape(c.inputShape(2)) : null;
    return new Tensor[] {dx, dw, db};
  }
}
