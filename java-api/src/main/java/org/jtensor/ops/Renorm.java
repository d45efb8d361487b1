package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/** torch.renorm: each slice along dim whose p-norm exceeds maxnorm scaled to maxnorm / (norm + 1e-7), composed so autograd gives PyTorch's renorm_backward. */
public final class Renorm {
  private Renorm() {}

  public static Tensor renorm(Tensor x, double p, int dim, double maxnorm) {
    String op = "renorm";
    TensorImpl t = Handles.implOf(x, op);
    if (!(p > 0)) throw new IllegalArgumentException(op + "(): renorm: non-positive-norm not supported");
    if (!(maxnorm >= 0)) throw new IllegalArgumentException(op + "(): renorm: expected maxnorm to be >= 0 but got " + maxnorm);
    if (t.dim() < 2) throw new IllegalArgumentException(op + "(): renorm: input needs at least 2 dimensions, got " + t.dim() + " dimensions");
    int d = Shapes.wrapDim(op, dim, t.dim());
    if (!t.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
          + ScalarTypes.name(t.dtype()));
    }
    int[] others = new int[t.dim() - 1];
    for (int k = 0, j = 0; k < t.dim(); k++) if (k != d) others[j++] = k;
    try (TensorScope s = TensorScope.open()) {
      // float16/bfloat16: the norm and factor in float32 (PyTorch's accumulate type), the factor rounded to x's dtype before the product, as its
      DType acc = t.dtype().itemSize() == 2 ? DType.FLOAT32 : t.dtype();
      Tensor norm = x.to(acc).norm(p, others, true);
      Tensor scale = Tensor.scalar(maxnorm, acc).div(norm.add(Tensor.scalar(1e-7, acc)));
      return s.keep(x.mul(Tensor.where(norm.gt(maxnorm), scale, 1.0).to(t.dtype())));
    }
  }
}
