package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;

/**
 * torch.linalg.solve (left=True) and torch.linalg.inv on the native LU (Factorizations): A is
 * factored once over its own batch, then its factors are broadcast against B's batch. Each is
 * recorded as one op (Ops.SOLVE, Ops.INV) whose derivative is written with these same
 * differentiable ops.
 */
public final class LinearSolves {
  private LinearSolves() {}

  /** X with AX = B: B a vector (B 1-D, or A's shape without its last dim) or a batch of matrices, batch dims broadcast. */
  public static Tensor solve(String op, Tensor a, Tensor b) {
    Handles.implOf(a, op);
    Factorizations.requireFloating(op, "linalg.solve", a);  // before A's shape, unlike the other ops
    Factorizations.requireSquare(op, "linalg.solve", a, "lu_cpu");
    Handles.implOf(b, op);
    Factorizations.requireCpu(op, b);
    Factorizations.requireFloating(op, "linalg.solve", b);
    if (a.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + "(): linalg.solve: Expected A and B to have the same dtype, but found A of type "
          + org.jtensor.core.ScalarTypes.name(a.dtype()) + " and B of type " + org.jtensor.core.ScalarTypes.name(b.dtype()) + " instead");
    }
    boolean vector = isVectorCase(a, b);
    if (!vector && b.dim() < 2) throw new IllegalArgumentException(op + "(): linalg.solve: The input tensor B must have at least 2 dimensions.");
    long n = a.shape()[a.dim() - 1];
    long[] bm = vector ? Factorizations.append(b.shape(), 1) : b.shape();
    if (bm[bm.length - 2] != n) {
      throw new IllegalArgumentException(op + "(): linalg.solve: Incompatible shapes of A and B for the equation AX = B (" + n + "x" + n + " and "
          + Factorizations.matrixShape(bm) + ")");
    }
    // B's batch first, as PyTorch's _linalg_broadcast_batch_dims names the sizes
    long[] batch = Shapes.broadcastShapes(op, Factorizations.batchShape(bm), Factorizations.batchShape(a.shape()));
    Tensor x;
    try (TensorScope s = TensorScope.open(); Factorizations.Lu f = Factorizations.lu(op, a)) {
      Factorizations.raiseIfFailed(op, "torch.linalg.solve", f.info(), a.dim() > 2, i -> "The solver failed because the input matrix is singular.");
      Factorizations.Lu wide = broadcast(f, batch, n);
      Tensor rhs = (vector ? b.detach().unsqueeze(-1) : b.detach()).expand(Factorizations.append(batch, n, bm[bm.length - 1]));
      Tensor solved = Factorizations.luSolve(op, wide, rhs);
      x = s.keep(vector ? solved.squeeze(-1) : solved);
    }
    return Factorizations.record(Ops.SOLVE, op, null, x, a, b);
  }

  /** A⁻¹ for each of A's matrices. */
  public static Tensor inv(String op, Tensor a) {
    Factorizations.requireSquare(op, "linalg.inv", a, null);
    long n = a.shape()[a.dim() - 1];
    Tensor x;
    try (Factorizations.Lu f = Factorizations.lu(op, a);
         Tensor eye = Tensor.eye(n, n, a.dtype());
         Tensor rhs = eye.expand(a.shape())) {
      Factorizations.raiseIfFailed(op, "linalg.inv", f.info(), a.dim() > 2,
          i -> "The diagonal element " + i + " is zero, the inversion could not be completed because the input matrix is singular.");
      x = Factorizations.luSolve(op, f, rhs);
    }
    return Factorizations.record(Ops.INV, op, null, x, a);
  }

  /** PyTorch's linalg_solve_is_vector_rhs: B is 1-D, or has exactly A's shape without A's last dim. */
  static boolean isVectorCase(Tensor a, Tensor b) {
    return isVectorCase(a.shape(), b.shape());
  }

  private static boolean isVectorCase(long[] a, long[] b) {
    return b.length == 1 || b.length == a.length - 1 && Arrays.equals(b, Arrays.copyOf(a, a.length - 1));
  }

  /** f's factors repeated over batch (which f's batch broadcasts to): the kernel takes one factorization per right-hand side. */
  private static Factorizations.Lu broadcast(Factorizations.Lu f, long[] batch, long n) {
    try (TensorScope s = TensorScope.open()) {
      Tensor lu = f.lu().expand(Factorizations.append(batch, n, n)).contiguous();
      Tensor pivots = f.pivots().expand(Factorizations.append(batch, n)).contiguous();
      return new Factorizations.Lu(s.keep(lu), s.keep(pivots), s.keep(Tensor.zeros(batch, org.jtensor.DType.INT32)));
    }
  }

  /** Ops.SOLVE's derivative: gB = A⁻ᵀ g, gA = -gB Xᵀ (the vector case as a column). */
  static Tensor[] solveBackward(Gradient.Context c, Tensor g) {
    Tensor a = c.input(0), x = c.result();
    Tensor at = a.mT();
    Tensor gb = solve("solve_backward", at, g);
    Tensor ga = null;
    if (c.needs(0)) {
      boolean vector = isVectorCase(a.shape(), c.inputShape(1));
      ga = vector ? gb.unsqueeze(-1).matmul(x.unsqueeze(-2)).neg() : gb.matmul(x.mT()).neg();
    }
    return Gradient.grads(ga, c.needs(1) ? gb : null);
  }

  /** Ops.INV's derivative: -A⁻ᵀ g A⁻ᵀ, from the saved inverse. */
  static Tensor[] invBackward(Gradient.Context c, Tensor g) {
    Tensor xt = c.result().mT();
    return Gradient.grads(xt.matmul(g).matmul(xt).neg());
  }
}
