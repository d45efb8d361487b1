package org.jtensor;

import org.jtensor.ops.CholeskyOps;
import org.jtensor.ops.Determinants;
import org.jtensor.ops.LinearSolves;
import org.jtensor.ops.LuFactors;

/**
 * torch.linalg's core on the CPU, float32 and float64, batched over leading dims: solve, inv, det,
 * slogdet, cholesky and lu_factor, on jtensor's own LU and Cholesky kernels (no LAPACK).
 * Differentiable (first order and through createGraph) except luFactor. A singular matrix is an
 * ArithmeticException where PyTorch raises (solve, inv, cholesky's non-positive-definite input), a 0
 * where it does not (det). CUDA tensors are refused: PyTorch uses cuSOLVER there.
 */
public final class Linalg {
  private Linalg() {}

  /** torch.linalg.slogdet's pair: sign (0 for a singular matrix) and log|det| (-inf then); closes both. */
  public record Slogdet(Tensor sign, Tensor logabsdet) implements AutoCloseable {
    @Override
    public void close() {
      sign.close();
      logabsdet.close();
    }
  }

  /** torch.linalg.lu_factor's pair: the packed LU factors (PyTorch's LU) and the int32 pivots, 1-based as LAPACK's; closes both. */
  public record LuFactor(Tensor lu, Tensor pivots) implements AutoCloseable {
    @Override
    public void close() {
      lu.close();
      pivots.close();
    }
  }

  /**
   * torch.linalg.solve(A, B) (left=True): X with AX = B. B is a vector when it is 1-D or has A's
   * shape without A's last dim, else a batch of matrices; batch dims broadcast.
   */
  public static Tensor solve(Tensor a, Tensor b) {
    return LinearSolves.solve("solve", a, b);
  }

  /** torch.linalg.inv: A⁻¹; a singular A is refused naming U's zero diagonal element, as PyTorch's. */
  public static Tensor inv(Tensor a) {
    return LinearSolves.inv("inv", a);
  }

  /** torch.linalg.det: 0 for a singular matrix, 1 for a 0 x 0 one. */
  public static Tensor det(Tensor a) {
    return Determinants.det("det", a);
  }

  /** torch.linalg.slogdet: (sign, log|det|). */
  public static Slogdet slogdet(Tensor a) {
    Tensor[] r = Determinants.slogdet("slogdet", "linalg.slogdet", a);
    return new Slogdet(r[0], r[1]);
  }

  /** torch.linalg.cholesky(A, upper): L with A = L Lᵀ from A's lower triangle (Lᵀ when upper). */
  public static Tensor cholesky(Tensor a, boolean upper) {
    return CholeskyOps.cholesky("cholesky", a, upper);
  }

  public static Tensor cholesky(Tensor a) {
    return cholesky(a, false);
  }

  /** torch.linalg.lu_factor for square A (not differentiable here); a zero on U's diagonal is refused as PyTorch's. */
  public static LuFactor luFactor(Tensor a) {
    Tensor[] r = LuFactors.luFactor("luFactor", a);
    return new LuFactor(r[0], r[1]);
  }
}
