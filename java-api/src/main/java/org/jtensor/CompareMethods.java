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
   * Elementwise |self − other| ≤ atol + rtol·|other| (bool, broadcast), as torch.isclose: equal
   * values (infinities of one sign included) are close, a finite value is never close to an
   * infinity, and NaN is close to NaN only with equalNan.
   */
  default Tensor isclose(Tensor other, double rtol, double atol, boolean equalNan) {
    if (!(rtol >= 0) || !(atol >= 0)) {
      throw new IllegalArgumentException("isclose(): rtol and atol must be non-negative, got rtol=" + rtol + " atol=" + atol);
    }
    Tensor a = self();
    if (other == null) throw new IllegalArgumentException("isclose(): expected a Tensor, got null");
    try (TensorScope s = TensorScope.open()) {
      Tensor r = a.eq(other);
      if (a.dtype() != DType.BOOL && other.dtype() != DType.BOOL) {
        Tensor finite = other.abs().lt(Double.POSITIVE_INFINITY);
        Tensor within = a.sub(other).abs().le(other.abs().mul(rtol).add(atol));
        r = r.logicalOr(finite.logicalAnd(within));
        if (equalNan) r = r.logicalOr(a.isnan().logicalAnd(other.isnan()));
      }
      return s.keep(r);
    }
  }

  default Tensor isclose(Tensor other) {
    return isclose(other, DEFAULT_RTOL, DEFAULT_ATOL, false);
  }

  /** Whether every element is close (torch.allclose); shapes must broadcast. */
  default boolean allclose(Tensor other, double rtol, double atol) {
    try (Tensor c = isclose(other, rtol, atol, false); Tensor all = c.all()) {
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
