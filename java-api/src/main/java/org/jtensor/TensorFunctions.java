package org.jtensor;

import java.util.List;
import org.jtensor.ops.Distances;
import org.jtensor.ops.MultiDot;
import org.jtensor.ops.ProductOps;
import org.jtensor.ops.Trapezoid;

/**
 * PyTorch's functions of several tensors with no self among them (torch.tensordot,
 * torch.linalg.multi_dot, torch.chain_matmul, torch.cdist, torch.trapezoid), called as {@code Tensor.tensordot(a, b, 2)}: a
 * superclass of {@link Tensor} (through TensorFactories, TensorJoins and TensorIndexFactories) because a class's static methods are
 * inherited and an interface's are not; it has no instances of its own.
 */
public abstract sealed class TensorFunctions extends DerivedFactories permits TensorIndexFactories {
  TensorFunctions() {}

  /** torch.tensordot(a, b, dims): a's last dims contracted with b's first dims (as many of each). */
  public static Tensor tensordot(Tensor a, Tensor b, int dims) {
    return ProductOps.tensordot(a, b, dims);
  }

  /**
   * torch.tensordot(a, b, (dimsA, dimsB)): dimsA[i] of a contracted with dimsB[i] of b (sizes equal,
   * or one of them 1: that dim is summed), through one GEMM; the result's dims are a's others, then b's.
   */
  public static Tensor tensordot(Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
    return ProductOps.tensordot("tensordot", a, b, dimsA, dimsB);
  }

  /**
   * torch.linalg.multi_dot: the product of the chain in the cheapest order, as PyTorch's; the first
   * may be 1-D (a row vector) and the last 1-D (a column vector), their dims dropped from the result.
   */
  public static Tensor multiDot(List<Tensor> tensors) {
    return MultiDot.multiDot("multiDot", tensors);
  }

  /** torch.chain_matmul (deprecated in PyTorch for multi_dot): matrices only; one matrix is returned as a copy. */
  public static Tensor chainMatmul(Tensor... matrices) {
    return MultiDot.chainMatmul(matrices);
  }

  /**
   * torch.cdist(x1 [..., P, M], x2 [..., R, M], p, computeMode): the p-norm distance of every row
   * pair, [..., P, R], batch dims broadcast. computeMode (null: "use_mm_for_euclid_dist_if_necessary",
   * or "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist") picks PyTorch's GEMM form for p = 2.
   */
  public static Tensor cdist(Tensor x1, Tensor x2, double p, String computeMode) {
    return Distances.cdist(x1, x2, p, computeMode);
  }

  public static Tensor cdist(Tensor x1, Tensor x2, double p) {
    return cdist(x1, x2, p, null);
  }

  public static Tensor cdist(Tensor x1, Tensor x2) {
    return cdist(x1, x2, 2, null);
  }

  /** torch.trapezoid(y, dx=1, dim=-1): the trapezoidal rule along dim with constant spacing. */
  public static Tensor trapezoid(Tensor y, double dx, int dim) { return Trapezoid.trapezoid("trapezoid", y, null, dx, dim, false); }

  /** torch.trapezoid(y, x, dim): with sample points x (1-D along dim, or broadcastable to y). */
  public static Tensor trapezoid(Tensor y, Tensor x, int dim) { return Trapezoid.trapezoid("trapezoid", y, x, 1, dim, false); }

  public static Tensor trapezoid(Tensor y) { return trapezoid(y, 1.0, -1); }

  /** torch.cumulative_trapezoid(y, dx, dim): the running trapezoidal integral, one element shorter along dim. */
  public static Tensor cumulativeTrapezoid(Tensor y, double dx, int dim) {
    return Trapezoid.trapezoid("cumulativeTrapezoid", y, null, dx, dim, true);
  }

  public static Tensor cumulativeTrapezoid(Tensor y, Tensor x, int dim) {
    return Trapezoid.trapezoid("cumulativeTrapezoid", y, x, 1, dim, true);
  }
}
