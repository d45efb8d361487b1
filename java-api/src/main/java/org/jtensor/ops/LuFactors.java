package org.jtensor.ops;

import org.jtensor.Tensor;

/** torch.linalg.lu_factor for square matrices: the native LU's packed factors and 1-based int32 pivots. */
public final class LuFactors {
  private LuFactors() {}

  /** [LU, pivots], neither recorded (lu_factor's derivative is not implemented here). */
  public static Tensor[] luFactor(String op, Tensor a) {
    Handles.implOf(a, op);
    Factorizations.requireCpu(op, a);
    if (a.dim() < 2) {
      throw new IllegalArgumentException(op + "(): torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: "
          + org.jtensor.core.Shapes.str(a.shape()) + " instead");
    }
    Factorizations.requireKernelDtype(op, "torch.linalg.lu_factor", a, "lu_cpu");  // integers and bool too, in its kernel's words
    long rows = a.shape()[a.dim() - 2], cols = a.shape()[a.dim() - 1];
    if (rows != cols) {  // PyTorch factors these too (P A = L U with a rectangular U); this kernel is square only
      throw new UnsupportedOperationException(op + "(): only square matrices are factored here, got " + rows + " by " + cols + " matrices");
    }
    Factorizations.Lu f = Factorizations.lu(op, a);
    try {
      Factorizations.raiseIfFailed(op, "torch.linalg.lu_factor", f.info(), a.dim() > 2, i -> "U[" + i + "," + i + "] is zero and using it on lu_solve would"
          + " result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or"
          + " linalg.lu_factor_ex(A, pivot)");
    } catch (RuntimeException | Error e) {
      f.close();
      throw e;
    }
    f.info().close();
    return new Tensor[] {f.lu(), f.pivots()};
  }
}
