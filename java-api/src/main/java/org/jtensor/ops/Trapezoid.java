package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/** torch.trapezoid and torch.cumulative_trapezoid along a dim, with spacing dx or sample points x, as ATen composes them (so autograd is free). */
public final class Trapezoid {
  private Trapezoid() {}

  /** x null: the constant spacing dx; else x (1-D of y's length along dim, or broadcastable to y) gives the spacings. */
  public static Tensor trapezoid(String op, Tensor y, Tensor x, double dx, int dim, boolean cumulative) {
    TensorImpl t = Handles.implOf(y, op);
    int d = Shapes.wrapDim(op, dim, t.dim());
    if (t.dtype() == DType.BOOL) throw new IllegalArgumentException(op + "(): received a bool input for `y`, but bool is not supported");
    try (TensorScope s = TensorScope.open()) {
      long n = t.dim() == 0 ? 1 : t.sizes()[d];
      if (n == 0 && !cumulative) {  // no samples integrate to 0, as NumPy's
        long[] shape = new long[t.dim() - 1];
        for (int k = 0, j = 0; k < t.dim(); k++) if (k != d) shape[j++] = t.sizes()[k];
        return s.keep(Tensor.zeros(shape, t.dtype(), y.device()));
      }
      Tensor sum = y.narrow(d, 0, Math.max(n - 1, 0)).add(y.narrow(d, Math.min(1, n), Math.max(n - 1, 0)));
      if (x == null) {
        if (!cumulative) return s.keep(y.sum(d).sub(y.select(d, 0).add(y.select(d, n - 1)).mul(0.5)).mul(dx));
        return s.keep(sum.mul(dx / 2.0).cumsum(d));
      }
      TensorImpl xi = Handles.implOf(x, op);
      if (xi.dtype() == DType.BOOL) throw new IllegalArgumentException(op + "(): received a bool input for `x`, but bool is not supported");
      Tensor xv = x;
      if (xi.dim() == 1) {
        if (xi.sizes()[0] != n) throw new IllegalArgumentException(op + "(): There must be one `x` value for each sample point");
        long[] shape = new long[t.dim()];
        java.util.Arrays.fill(shape, 1);
        shape[d] = n;
        xv = x.view(shape);
      } else if (xi.dim() < t.dim()) {
        long[] shape = new long[t.dim()];
        java.util.Arrays.fill(shape, 1);
        System.arraycopy(xi.sizes(), 0, shape, t.dim() - xi.dim(), xi.dim());
        xv = x.view(shape);
      }
      long m = xv.shape()[d];
      Tensor spacing = xv.narrow(d, 1, m - 1).sub(xv.narrow(d, 0, m - 1));
      Tensor weighted = sum.mul(spacing);
      return s.keep(cumulative ? weighted.cumsum(d).div(2.0) : weighted.sum(d).div(2.0));
    }
  }
}
