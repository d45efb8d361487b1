package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.linalg.det, slogdet and torch.logdet from the native LU (Factorizations): U's diagonal
 * and the pivots' parity. A singular matrix is no error: its det is 0 (the LU completes past a
 * zero pivot, as LAPACK's), its slogdet (0, -inf). det and slogdet's logabsdet are recorded as one
 * op each (Ops.DET, Ops.LOGABSDET); logdet is composed from slogdet, as PyTorch's.
 */
public final class Determinants {
  private Determinants() {}

  /** det(A) per matrix: 1 for a 0 x 0 matrix. */
  public static Tensor det(String op, Tensor a) {
    Factorizations.requireSquare(op, "linalg.det", a, "lu_cpu");
    Tensor d;
    try (TensorScope s = TensorScope.open(); Factorizations.Lu f = Factorizations.lu(op, a)) {
      d = s.keep(diagonal(f).prod(-1).mul(permutationSign(f, a.dtype())));
    }
    return Factorizations.record(Ops.DET, op, null, d, a);
  }

  /** [sign, logabsdet] per matrix; only logabsdet is differentiable (sign is piecewise constant). */
  public static Tensor[] slogdet(String op, String torchName, Tensor a) {
    Factorizations.requireSquare(op, torchName, a, null);
    Tensor sign, logabsdet;
    try (TensorScope s = TensorScope.open(); Factorizations.Lu f = Factorizations.lu(op, a)) {
      Tensor u = diagonal(f);
      sign = s.keep(u.sign().prod(-1).mul(permutationSign(f, a.dtype())));
      logabsdet = s.keep(u.abs().log().sum(-1));
    }
    try {
      return new Tensor[] {sign, Factorizations.record(Ops.LOGABSDET, op, null, logabsdet, a)};
    } catch (RuntimeException | Error e) {
      sign.close();
      throw e;
    }
  }

  /** log(det A): NaN where det < 0, -inf where it is 0 (PyTorch's sign.log() + logabsdet). */
  public static Tensor logdet(String op, Tensor a) {
    Tensor[] sl = slogdet(op, "logdet", a);
    try (Tensor sign = sl[0]; Tensor logabsdet = sl[1]; Tensor logSign = sign.log()) {
      return logSign.add(logabsdet);
    }
  }

  private static Tensor diagonal(Factorizations.Lu f) {
    return f.lu().diagonal(0, -2, -1);
  }

  /** (-1)^(rows swapped): each pivot that is not its own row is one transposition. */
  private static Tensor permutationSign(Factorizations.Lu f, DType dtype) {
    long n = f.pivots().shape()[f.pivots().dim() - 1];
    Tensor own = Tensor.arange(1, n + 1, 1, DType.INT32);
    Tensor odd = f.pivots().ne(own).sum(-1).remainder(2L);
    return odd.mul(-2L).add(1L).to(dtype);
  }

  /**
   * Ops.DET's derivative: g·det·A⁻ᵀ. Where det is exactly 0, PyTorch 2.13 answers zeros (not the
   * cofactors, which it gives for a det of 1e-16): those matrices are inverted as the identity, so
   * g·0·I is the zeros without inv refusing the batch.
   */
  static Tensor[] detBackward(Gradient.Context c, Tensor g) {
    Tensor a = c.input(0), det = c.result();
    Tensor singular = det.eq(0.0).unsqueeze(-1).unsqueeze(-1);
    long n = a.shape()[a.dim() - 1];
    Tensor invertible = Tensor.where(singular, Tensor.eye(n, n, a.dtype()), a);
    Tensor scale = g.mul(det).unsqueeze(-1).unsqueeze(-1);
    return Gradient.grads(LinearSolves.inv("det_backward", invertible).mT().mul(scale));
  }

  /** Ops.LOGABSDET's derivative: g·A⁻ᵀ. */
  static Tensor[] logabsdetBackward(Gradient.Context c, Tensor g) {
    return Gradient.grads(LinearSolves.inv("slogdet_backward", c.input(0)).mT().mul(g.unsqueeze(-1).unsqueeze(-1)));
  }
}
