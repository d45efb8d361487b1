package org.jtensor;

import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * Tensor's diagonal builders and readers (diag, diagEmbed, diagflat, trace), composed from
 * diagonal views, copy_ and sum as ATen composes diag_embed, so autograd needs nothing of its own.
 * Inherited by {@link Tensor}.
 */
public sealed interface DiagonalMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  default Tensor diag() {
    return diag(0);
  }

  /** torch.diag: a 1-D tensor as the square matrix with it on diagonal k; a matrix's diagonal k as a copy. */
  default Tensor diag(long diagonal) {
    Tensor self = self();
    int n = self.impl("diag").dim();
    if (n == 1) return embed("diag", diagonal, 0, 1);
    if (n != 2) throw new IllegalArgumentException("diag(): Supports 1D or 2D tensors. Got " + n + "D");
    try (Tensor d = self.diagonal(diagonal, 0, 1)) {
      return d.clone();
    }
  }

  default Tensor diagEmbed() {
    return diagEmbed(0, -2, -1);
  }

  /**
   * torch.diag_embed: each last-dim vector placed on diagonal offset of the plane (dim1, dim2) of a
   * new tensor one dim larger, zeros elsewhere (ATen's zeros, then diagonal(...).copy_(this)).
   */
  default Tensor diagEmbed(long offset, int dim1, int dim2) {
    return embed("diagEmbed", offset, dim1, dim2);
  }

  /** torch.diagflat: the flattened tensor on diagonal offset of a square matrix. */
  default Tensor diagflat(long offset) {
    try (Tensor flat = self().ravel()) {
      return flat.diag(offset);
    }
  }

  default Tensor diagflat() {
    return diagflat(0);
  }

  /** torch.trace: the sum of a matrix's main diagonal; integers sum to int64, as sum does. */
  default Tensor trace() {
    TensorImpl t = self().impl("trace");
    if (t.dim() != 2) throw new IllegalArgumentException("trace(): trace: expected a matrix, but got tensor with dim " + t.dim());
    if (t.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("trace", "trace", t.dtype());
    try (Tensor d = self().diagonal()) {
      return d.sum();
    }
  }

  private Tensor embed(String op, long offset, int dim1, int dim2) {
    Tensor self = self();
    TensorImpl t = self.impl(op);
    int n = t.dim() + 1;
    int a = Shapes.wrapDim(op, dim1, n), b = Shapes.wrapDim(op, dim2, n);
    if (a == b) throw new IllegalArgumentException(op + "(): diagonal dimensions cannot be identical " + dim1 + ", " + dim2);
    long last = t.sizes()[n - 2], side;
    try {
      side = Math.addExact(last, Math.absExact(offset));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(op + "(): a side of " + last + " + |" + offset + "| overflows 64 bits");
    }
    long[] shape = new long[n];
    for (int d = 0, j = 0; d < n; d++) shape[d] = d == a || d == b ? side : t.sizes()[j++];
    try (Tensor out = Tensor.zeros(shape, t.dtype(), t.device()); Tensor plane = out.diagonal(offset, a, b)) {
      plane.copy_(self);
      return out.same(op);
    }
  }
}
