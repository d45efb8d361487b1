package org.jtensor;

import org.jtensor.ops.Distances;
import org.jtensor.ops.ProductOps;

/**
 * Tensor's products beyond matmul/mm/bmm/baddbmm/addmm (LinalgMethods): kron, inner, vdot, mv,
 * addmv, addr, addbmm and cross, with PyTorch 2.13's semantics and refusals; composed from views,
 * elementwise ops and one GEMM (ProductOps), so each is differentiable. Inherited by {@link Tensor}.
 */
public sealed interface ProductMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.kron: the Kronecker product; the operands' dims are aligned to the right and their dtypes promote. */
  default Tensor kron(Tensor other) { return ProductOps.kron(self(), other); }

  /** torch.inner: the last dims contracted (a 0-dim operand multiplies); same dtypes only, as PyTorch's. */
  default Tensor inner(Tensor other) { return ProductOps.inner(self(), other); }

  /** torch.vdot of real vectors: their dot product, 0-dim. */
  default Tensor vdot(Tensor other) { return ProductOps.vdot(self(), other); }

  /** torch.mv: this matrix [n, m] times vec [m], a vector [n]. */
  default Tensor mv(Tensor vec) { return ProductOps.mv(self(), vec); }

  /** torch.addmv: beta·self + alpha·(mat @ vec); self [n] or one element; beta 0 ignores self (its NaN too). */
  default Tensor addmv(Tensor mat, Tensor vec, double beta, double alpha) { return ProductOps.addmv(self(), mat, vec, beta, alpha); }

  default Tensor addmv(Tensor mat, Tensor vec) { return addmv(mat, vec, 1, 1); }

  /**
   * torch.addr: beta·self + alpha·(vec1 ⊗ vec2), self broadcast to [len(vec1), len(vec2)], dtypes
   * promoting; Python-float scalars, so an integral or bool result refuses them, as PyTorch's.
   */
  default Tensor addr(Tensor vec1, Tensor vec2, double beta, double alpha) { return ProductOps.addr(self(), vec1, vec2, beta, alpha); }

  /** addr with Python-int scalars: for a bool result, (beta ∧ self) ∨ (alpha ∧ vec1 ∧ vec2). */
  default Tensor addr(Tensor vec1, Tensor vec2, long beta, long alpha) { return ProductOps.addr(self(), vec1, vec2, beta, alpha); }

  default Tensor addr(Tensor vec1, Tensor vec2) { return addr(vec1, vec2, 1L, 1L); }

  /** torch.addbmm: beta·self + alpha·Σ_b batch1[b] @ batch2[b]; batch1 [b, n, m], batch2 [b, m, p], self broadcast to [n, p]. */
  default Tensor addbmm(Tensor batch1, Tensor batch2, double beta, double alpha) {
    return ProductOps.addbmm(self(), batch1, batch2, beta, alpha);
  }

  default Tensor addbmm(Tensor batch1, Tensor batch2) { return addbmm(batch1, batch2, 1, 1); }

  /** torch.linalg.cross's semantics: the cross product along dim (of size 3 in both), the other dims broadcast; same dtypes only. */
  default Tensor cross(Tensor other, int dim) { return ProductOps.cross(self(), other, dim); }

  /** torch.cross(other) without a dim: along the first dim of this tensor of size 3 (torch.linalg.cross defaults to -1 instead). */
  default Tensor cross(Tensor other) { return ProductOps.cross(self(), other, null); }

  /** torch.dist: the p-norm of this − other (broadcast), 0-dim; p = 0 counts the differing elements, p = inf takes the largest. */
  default Tensor dist(Tensor other, double p) { return Distances.dist(self(), other, p); }

  default Tensor dist(Tensor other) { return dist(other, 2); }
}
