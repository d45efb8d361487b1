package org.jtensor.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/** torch.diff: the n-th forward difference along a dim, composed from narrow and sub (xor for bool), so autograd is sub's. */
public final class Differences {
  private Differences() {}

  /** prepend and append (either may be null) are joined to self along dim first, their dtypes promoting as cat's. */
  public static Tensor diff(Tensor self, long n, int dim, Tensor prepend, Tensor append) {
    TensorImpl x = Handles.implOf(self, "diff");
    if (x.dim() == 0) throw new IllegalArgumentException("diff(): diff expects input to be at least one-dimensional");
    if (n < 0) throw new IllegalArgumentException("diff(): order must be non-negative but got " + n);
    int d = Shapes.wrapDim("diff", dim, x.dim());
    List<Tensor> parts = new ArrayList<>(3);
    for (Tensor edge : new Tensor[] {prepend, self, append}) {
      if (edge == null) continue;
      parts.add(edge);
      if (edge != self) checkEdge(x, Handles.implOf(edge, "diff"), d);
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor r = parts.size() == 1 ? self : Tensor.cat(parts, d);
      if (n == 0) return s.keep(r.clone());
      boolean bool = r.dtype() == DType.BOOL;
      long len = r.shape()[d];
      for (long i = 0; i < Math.min(n, len); i++) {
        long out = len - 1 - i;
        Tensor later = r.narrow(d, 1, out), earlier = r.narrow(d, 0, out);
        r = bool ? later.logicalXor(earlier) : later.sub(earlier);
      }
      return s.keep(r == self ? r.clone() : r);
    }
  }

  private static void checkEdge(TensorImpl x, TensorImpl edge, int d) {
    if (edge.dim() != x.dim()) throw new IllegalArgumentException("diff(): diff expects prepend or append to be the same dimension as input");
    for (int i = 0; i < x.dim(); i++) {
      if (i != d && edge.sizes()[i] != x.sizes()[i]) {
        throw new IllegalArgumentException("diff(): diff expects the shape of tensor to prepend or append to match that of input except along "
            + "the differencing dimension; input.size(" + i + ") = " + x.sizes()[i] + ", but got tensor.size(" + i + ") = " + edge.sizes()[i]);
      }
    }
  }
}
