package org.jtensor;

import org.jtensor.core.ScalarTypes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.Autocasting;
import org.jtensor.ops.Determinants;
import org.jtensor.ops.LinearSolves;
import org.jtensor.ops.LinalgOps;
import org.jtensor.ops.ProductOps;

/** Tensor's matrix products and torch.Tensor's linalg methods (on {@link Linalg}'s kernels), inherited by {@link Tensor}. */
public sealed interface LinalgMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.matmul: dot, matrix-vector, matrix-matrix and broadcast batched forms. */
  default Tensor matmul(Tensor other) {
    return Tensor.wrap(LinalgOps.matmul("matmul", impl("matmul"), Tensor.implOf(other, "matmul")));
  }

  /** Matrix product of two matrices. */
  default Tensor mm(Tensor mat2) {
    TensorImpl a = impl("mm"), b = Tensor.implOf(mat2, "mm");
    LinalgOps.requireDims("mm", "self", a, 2);
    LinalgOps.requireDims("mm", "mat2", b, 2);
    return Tensor.wrap(LinalgOps.matmul("mm", a, b));
  }

  /** Batched product of two 3-D tensors with the same batch size. */
  default Tensor bmm(Tensor mat2) {
    TensorImpl a = impl("bmm"), b = Tensor.implOf(mat2, "bmm");
    LinalgOps.requireDims("bmm", "batch1", a, 3);
    LinalgOps.requireDims("bmm", "batch2", b, 3);
    LinalgOps.requireBatch2("bmm", a, b);
    return Tensor.wrap(LinalgOps.matmul("bmm", a, b));
  }

  /**
   * beta·self + alpha·(batch1 @ batch2) (torch.baddbmm): batch1 [b, n, m], batch2 [b, m, p], self
   * broadcastable to [b, n, p]; with beta 0, self is ignored (NaN and inf in it do not propagate).
   */
  default Tensor baddbmm(Tensor batch1, Tensor batch2, double beta, double alpha) {
    return Autocasting.apply("baddbmm", c -> ((LinalgMethods) c[0]).baddbmmAs(c[1], c[2], beta, alpha), (Tensor) this, batch1, batch2);
  }

  /** baddbmm on the operands autocast left (Note [Autocast]). */
  private Tensor baddbmmAs(Tensor batch1, Tensor batch2, double beta, double alpha) {
    Tensor self = (Tensor) this;
    String op = "baddbmm";
    TensorImpl a = Tensor.implOf(batch1, op), b = Tensor.implOf(batch2, op), c = impl(op);
    LinalgOps.requireDims(op, "batch1", a, 3);
    LinalgOps.requireDims(op, "batch2", b, 3);
    LinalgOps.requireBatch2(op, a, b);
    if (c.dtype() != a.dtype() || a.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + "(): Input dtypes must be the same, got: input " + c.dtype() + ", batch1: " + a.dtype()
          + ", batch2: " + b.dtype());
    }
    if (a.dtype() == DType.BOOL) {  // PyTorch's words; the integer path below gave an int64 result
      throw ScalarTypes.notImplemented(op, "baddbmm", DType.BOOL);
    }
    LinalgOps.checkAlphaBeta(op, a.dtype(), beta, alpha);
    if (a.dtype() == DType.FLOAT16 || a.dtype() == DType.BFLOAT16) {
      // PyTorch accumulates, scales and adds beta * self in float32 and rounds once; bmm then add would round the product first
      try (TensorScope s = TensorScope.open()) {
        Tensor wide = ((LinalgMethods) self.to(DType.FLOAT32)).baddbmmAs(batch1.to(DType.FLOAT32), batch2.to(DType.FLOAT32), beta, alpha);
        return s.keep(wide.to(a.dtype()));
      }
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor product = batch1.bmm(batch2);
      LinalgOps.requireBroadcastsTo(op, self.shape(), product.shape());
      // no product at all (k = 0) is 0 whatever alpha is, as addmm's (0 * inf would be NaN)
      return s.keep(ProductOps.scaledPlus(product, self, beta, alpha, a.sizes()[2] == 0));
    }
  }

  default Tensor baddbmm(Tensor batch1, Tensor batch2) {
    return baddbmm(batch1, batch2, 1, 1);
  }

  /** Inner product of two 1-D tensors, 0-dim. */
  default Tensor dot(Tensor other) {
    TensorImpl a = impl("dot"), b = Tensor.implOf(other, "dot");
    if (a.dim() != 1 || b.dim() != 1) {
      throw new IllegalArgumentException("dot(): 1D tensors expected, but got " + a.dim() + "D and " + b.dim() + "D tensors");
    }
    return Tensor.wrap(LinalgOps.matmul("dot", a, b));  // which refuses two dtypes in dot's words
  }

  /** Outer product of two 1-D tensors. */
  default Tensor outer(Tensor vec2) {
    TensorImpl a = impl("outer"), b = Tensor.implOf(vec2, "outer");
    if (a.dim() != 1 || b.dim() != 1) {  // PyTorch's words
      throw new IllegalArgumentException("outer(): outer: Expected 1-D argument " + (a.dim() != 1 ? "self" : "vec2") + ", but got "
          + (a.dim() != 1 ? a.dim() : b.dim()) + "-D");
    }
    try (Tensor col = self().unsqueeze(1); Tensor row = vec2.unsqueeze(0)) {
      return col.mul(row);
    }
  }

  /** beta * self + alpha * (mat1 @ mat2). */
  default Tensor addmm(Tensor mat1, Tensor mat2, double beta, double alpha) {
    return Tensor.wrap(LinalgOps.addmm(impl("addmm"), Tensor.implOf(mat1, "addmm"), Tensor.implOf(mat2, "addmm"), beta, alpha));
  }

  default Tensor addmm(Tensor mat1, Tensor mat2) {
    return addmm(mat1, mat2, 1.0, 1.0);
  }

  /** Tensor.inverse: torch.linalg.inv. */
  default Tensor inverse() {
    return LinearSolves.inv("inverse", self());
  }

  /** Tensor.det: torch.linalg.det. */
  default Tensor det() {
    return Determinants.det("det", self());
  }

  /** Tensor.logdet: log det, NaN where det is negative and -inf where it is 0. */
  default Tensor logdet() {
    return Determinants.logdet("logdet", self());
  }

  /** Tensor.slogdet: torch.linalg.slogdet. */
  default Linalg.Slogdet slogdet() {
    Tensor[] r = Determinants.slogdet("slogdet", "linalg.slogdet", self());
    return new Linalg.Slogdet(r[0], r[1]);
  }
}
