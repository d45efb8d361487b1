package org.jtensor.ops;

import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.linalg.cholesky on the native kernel (Factorizations): only A's lower triangle is read, as
 * PyTorch's; upper answers Lᵀ. Recorded as one op (Ops.CHOLESKY, args: upper) whose derivative is
 * PyTorch's cholesky_backward, written with the differentiable solve.
 */
public final class CholeskyOps {
  private CholeskyOps() {}

  public static Tensor cholesky(String op, Tensor a, boolean upper) {
    Factorizations.requireSquare(op, "linalg.cholesky", a, "cholesky_cpu");
    Tensor factor;
    try (TensorScope s = TensorScope.open()) {
      Tensor[] li = Factorizations.cholesky(op, a);
      Factorizations.raiseIfFailed(op, "linalg.cholesky", li[1], a.dim() > 2, order -> "The factorization could not be completed because the input"
          + " is not positive-definite (the leading minor of order " + order + " is not positive-definite).");
      factor = s.keep(upper ? li[0].mT().contiguous() : li[0]);
    }
    return Factorizations.record(Ops.CHOLESKY, op, upper, factor, a);
  }

  /**
   * gA = L⁻ᵀ Φ(tril(Lᵀ gL)) L⁻¹ with Φ(X) = ½(X + tril(X, -1)ᵀ), the adjoint of the map from a
   * symmetric dA to dL (derivatives.yaml's cholesky_backward); upper works on the transposes.
   */
  static Tensor[] backward(Gradient.Context c, Tensor g) {
    boolean upper = c.args(Boolean.class);
    Tensor l = upper ? c.result().mT() : c.result();
    Tensor gl = upper ? g.mT() : g;
    Tensor lt = l.mT();
    Tensor p = lt.matmul(gl).tril(0);
    Tensor phi = p.add(p.tril(-1).mT()).mul(0.5);
    Tensor left = LinearSolves.solve("cholesky_backward", lt, phi);  // L⁻ᵀ Φ
    Tensor ga = LinearSolves.solve("cholesky_backward", lt, left.mT()).mT();  // (L⁻ᵀ (L⁻ᵀ Φ)ᵀ)ᵀ = L⁻ᵀ Φ L⁻¹
    return Gradient.grads(ga);
  }
}
