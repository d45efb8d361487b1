package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;

/**
 * torch.cov and torch.corrcoef as PyTorch's ATen composes them (rows are variables, columns
 * observations): the weighted mean taken out, one GEMM, divided by the degrees of freedom; so the
 * dtypes promote and the gradients flow as PyTorch's.
 */
public final class Covariance {
  private Covariance() {}

  /** fweights (integral) and aweights (floating) may be null; op names the call ("cov", or "corrcoef" through it). */
  public static Tensor cov(String op, Tensor x, long correction, Tensor fweights, Tensor aweights) {
    TensorImpl t = Handles.implOf(x, op);
    if (t.dim() > 2) {
      throw new IllegalArgumentException(op + "(): expected input to have two or fewer dimensions but got an input with " + t.dim()
          + " dimensions");
    }
    if (t.dtype() == DType.BOOL) throw new IllegalArgumentException(op + "(): bool dtype is not supported for input");
    try (TensorScope s = TensorScope.open()) {
      Tensor in = t.dim() < 2 ? x.reshape(1, -1) : x;
      long observations = in.shape()[1];
      Tensor w = null;
      if (fweights != null) {
        checkWeights(op, "fweights", fweights, observations, "integral", d -> !d.isFloatingPoint() && d != DType.BOOL);
        w = fweights;
      }
      if (aweights != null) {
        checkWeights(op, "aweights", aweights, observations, "floating point", DType::isFloatingPoint);
        w = w == null ? aweights : w.mul(aweights);
      }
      Tensor wSum = w == null ? Tensor.scalar(observations) : w.sum();
      if (w != null && wSum.item() == 0) throw new IllegalArgumentException(op + "(): weights sum to zero, can't be normalized");
      Tensor avg = (w == null ? in : in.mul(w)).sum(1).div(wSum);
      Tensor norm = aweights != null && correction != 0 ? wSum.sub(w.mul(aweights).sum().mul(correction).div(wSum)) : wSum.sub(correction);
      if (norm.item() <= 0) norm = Tensor.zerosLike(norm);  // PyTorch warns that the degrees of freedom are <= 0, and divides by 0
      Tensor centered = in.sub(avg.unsqueeze(1));
      Tensor c = centered.mm((w == null ? centered : centered.mul(w)).t());
      return s.keep(c.div(norm).squeeze());
    }
  }

  private static void checkWeights(String op, String name, Tensor w, long observations, String kind,
      java.util.function.Predicate<DType> accepts) {
    TensorImpl t = Handles.implOf(w, op);
    if (t.dim() > 1) {
      throw new IllegalArgumentException(op + "(): expected " + name + " to have one or fewer dimensions but got " + name + " with " + t.dim()
          + " dimensions");
    }
    if (!accepts.test(t.dtype())) {
      throw new IllegalArgumentException(op + "(): expected " + name + " to have " + kind + " dtype but got " + name + " with "
          + ScalarTypes.name(t.dtype()) + " dtype");
    }
    if (t.numel() != observations) {
      throw new IllegalArgumentException(op + "(): expected " + name + " to have the same numel as there are observations in the input but got "
          + t.numel() + " != " + observations);
    }
    if (observations > 0) {
      try (Tensor min = w.min()) {
        if (min.item() < 0) throw new IllegalArgumentException(op + "(): " + name + " cannot be negative");
      }
    }
  }

  /** Pearson's correlation coefficients: cov over the outer product of the standard deviations, clipped to [-1, 1]. */
  public static Tensor corrcoef(Tensor x) {
    TensorImpl t = Handles.implOf(x, "corrcoef");
    if (t.dim() > 2) {
      throw new IllegalArgumentException("corrcoef(): expected input to have two or fewer dimensions but got an input with " + t.dim()
          + " dimensions");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor c = cov("corrcoef", x, 1, null, null);
      if (c.dim() == 0) return s.keep(c.div(c));  // NaN for a covariance of 0, inf or NaN, else 1
      Tensor std = c.diagonal().sqrt();
      return s.keep(c.div(std.reshape(-1, 1)).div(std.reshape(1, -1)).clamp(-1.0, 1.0));
    }
  }
}
