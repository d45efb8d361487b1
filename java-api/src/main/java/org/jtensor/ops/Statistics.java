package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * aminmax, var_mean and std_mean as PyTorch 2.13 has them, composed from amin/amax, var/std and
 * mean after checking their arguments under the name the user called (so autograd is those ops').
 */
public final class Statistics {
  private Statistics() {}

  /** amin and amax over dim (null: every element); an empty reduction is refused, as having no identity. */
  public static Tensor[] aminmax(Tensor x, Integer dim, boolean keepdim) {
    TensorImpl t = Handles.implOf(x, "aminmax");
    if (dim == null) {
      if (t.numel() == 0) {
        throw new IllegalArgumentException("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
      }
    } else {
      int d = Shapes.wrapDim("aminmax", dim, t.dim());
      if (t.dim() > 0 && t.sizes()[d] == 0) {
        throw new IllegalArgumentException("aminmax(): aminmax: Expected reduction dim " + dim + " to have non-zero size.");
      }
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor min = dim == null ? x.amin() : x.amin(dim, keepdim), max = dim == null ? x.amax() : x.amax(dim, keepdim);
      if (dim == null && keepdim) {  // every dim kept as 1
        long[] ones = new long[t.dim()];
        java.util.Arrays.fill(ones, 1);
        min = min.reshape(ones);
        max = max.reshape(ones);
      }
      return new Tensor[] {s.keep(min), s.keep(max)};
    }
  }

  /** var (std when std) and mean over dims (null: every element), floating types only. */
  public static Tensor[] spreadAndMean(String op, Tensor x, int[] dims, long correction, boolean keepdim, boolean std) {
    TensorImpl t = Handles.implOf(x, op);
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): " + (std ? "std_mean" : "var_mean") + " only support floating point and complex dtypes");
    }
    if (dims != null) ReductionOps.checkDims(op, t.dim(), dims);
    try (TensorScope s = TensorScope.open()) {
      Tensor spread = std ? x.std(dims, correction, keepdim) : x.var(dims, correction, keepdim);
      return new Tensor[] {s.keep(spread), s.keep(x.mean(dims, keepdim))};
    }
  }
}
