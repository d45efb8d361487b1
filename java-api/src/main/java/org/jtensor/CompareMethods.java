package org.jtensor;

import java.util.Arrays;

/**
 * Whole-tensor comparisons (torch.isclose, allclose, equal), built from the elementwise ops.
 * Inherited by {@link Tensor}.
 */
public sealed interface CompareMethods permits Tensor {
  double DEFAULT_RTOL = 1e-5, DEFAULT_ATOL = 1e-8;

  private Tensor self() {
    return (Tensor) this;
  }

  /**
   * Elementwise |self − other| ≤ atol + rtol·|other| (bool, broadcast), as torch.isclose: both of
   * one dtype; equal values (infinities of one sign included) are close, and otherwise a pair is
   * close only where its error |self − other| is finite (so never a finite value and an infinity,
   * whatever the tolerances); NaN is close to NaN only with equalNan. Bool and integer tensors
   * are measured in the default float dtype (as PyTorch: no wrap-around in the difference), and
   * with rtol = atol = 0 the comparison is exact equality.
   */
  default Tensor isclose(Tensor other, double rtol, double atol, boolean equalNan) {
    if (!(rtol >= 0)) throw new IllegalArgumentException("isclose(): rtol must be greater than or equal to zero, but got " + rtol);
    if (!(atol >= 0)) throw new IllegalArgumentException("isclose(): atol must be greater than or equal to zero, but got " + atol);
    Tensor a = self();
    if (other == null) throw new IllegalArgumentException("isclose(): expected a Tensor, got null");
    if (a.dtype() != other.dtype()) throw new IllegalArgumentException("isclose(): " + a.dtype() + " did not match " + other.dtype());
    try (TensorScope s = TensorScope.open()) {
      Tensor r = a.eq(other);
      if (equalNan && a.dtype().isFloatingPoint()) r = r.logicalOr(a.isnan().logicalAnd(other.isnan()));
      if (rtol == 0 && atol == 0) return s.keep(r);
      Tensor x = a.dtype().isFloatingPoint() ? a : a.to(DType.DEFAULT_FLOAT);
      Tensor y = a.dtype().isFloatingPoint() ? other : other.to(DType.DEFAULT_FLOAT);
      Tensor error = x.sub(y).abs();
      Tensor within = error.lt(Double.POSITIVE_INFINITY).logicalAnd(error.le(y.mul(rtol).abs().add(atol)));
      return s.keep(r.logicalOr(within));
    }
  }

  default Tensor isclose(Tensor other) {
    return isclose(other, DEFAULT_RTOL, DEFAULT_ATOL, false);
  }

  /** Whether every element is close (torch.allclose); shapes must broadcast. */
  default boolean allclose(Tensor other, double rtol, double atol) {
    return allclose(other, rtol, atol, false);
  }

  /** Whether every element is close (torch.allclose with equal_nan): NaN matches NaN when equalNan. */
  default boolean allclose(Tensor other, double rtol, double atol, boolean equalNan) {
    try (Tensor c = isclose(other, rtol, atol, equalNan); Tensor all = c.all()) {
      return all.item() != 0;
    }
  }

  default boolean allclose(Tensor other) {
    return allclose(other, DEFAULT_RTOL, DEFAULT_ATOL);
  }

  /** Same shape and every element equal (torch.equal; NaN is never equal). */
  default boolean equal(Tensor other) {
    if (other == null) throw new IllegalArgumentException("equal(): expected a Tensor, got null");
    if (!Arrays.equals(self().shape(), other.shape())) return false;
    if (self().numel() == 0) return true;
    try (Tensor e = self().eq(other); Tensor all = e.all()) {
      return all.item() != 0;
    }
  }

  /** The shape as PyTorch prints it: {@code torch.Size([2, 3])}. */
  default String shapeString() {
    return "torch.Size(" + Arrays.toString(self().shape()) + ")";
  }
}
