package org.jtensor.ops;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * torch.linalg.multi_dot and torch.chain_matmul: a chain of matrix products in the order that
 * needs the fewest multiplications, chosen as PyTorch chooses it (a cost comparison for three,
 * the classic dynamic program above, the first cheapest split winning), so results round as its.
 */
public final class MultiDot {
  private MultiDot() {}

  /** torch.chain_matmul: two-dim matrices only; one is returned as a copy. */
  public static Tensor chainMatmul(Tensor... matrices) {
    String op = "chainMatmul";
    if (matrices == null || matrices.length == 0) throw new IllegalArgumentException(op + "(): Expected one or more matrices");
    for (Tensor m : matrices) {
      int d = Handles.implOf(m, op).dim();
      if (d != 2) throw new IllegalArgumentException(op + "(): Tensor dimension is " + d + ", expected 2 instead.");
    }
    if (matrices.length == 1) return matrices[0].clone();
    return multiDot(op, List.of(matrices));
  }

  /** torch.linalg.multi_dot: the first tensor may be a row vector (1-D) and the last a column vector, the rest are matrices. */
  public static Tensor multiDot(String op, List<Tensor> tensors) {
    if (tensors == null) throw new IllegalArgumentException(op + "(): expected a list of tensors, got null");
    int n = tensors.size();
    if (n < 2) throw new IllegalArgumentException(op + "(): expected at least 2 tensors but got " + n);
    TensorImpl[] t = new TensorImpl[n];
    for (int i = 0; i < n; i++) t[i] = Handles.implOf(tensors.get(i), op);
    if (t[0].dim() != 1 && t[0].dim() != 2) {
      throw new IllegalArgumentException(op + "(): the first tensor must be 1D or 2D but got " + t[0].dim() + "D");
    }
    if (t[n - 1].dim() != 1 && t[n - 1].dim() != 2) {
      throw new IllegalArgumentException(op + "(): the last tensor must be 1D or 2D but got " + t[n - 1].dim() + "D");
    }
    for (int i = 1; i < n; i++) {
      if (i < n - 1 && t[i].dim() != 2) throw new IllegalArgumentException(op + "(): tensor " + i + " must be 2D but got " + t[i].dim() + "D");
      if (t[i].dtype() != t[0].dtype()) {
        throw new IllegalArgumentException(op + "(): all tensors must have be the same dtype but tensor 0 is " + t[0].dtype() + " and tensor "
            + i + " " + t[i].dtype());
      }
    }
    if (t[0].dtype() == DType.BOOL) throw ScalarTypes.notImplemented(op, "addmm_impl_cpu_", DType.BOOL);
    try (TensorScope s = TensorScope.open()) {
      Tensor[] m = new Tensor[n];
      for (int i = 0; i < n; i++) m[i] = tensors.get(i);
      boolean row = t[0].dim() == 1, column = t[n - 1].dim() == 1;
      if (row) m[0] = m[0].unsqueeze(0);
      if (column) m[n - 1] = m[n - 1].unsqueeze(1);
      long[] p = new long[n + 1];  // matrix i is p[i] x p[i + 1]
      for (int i = 0; i < n; i++) {
        if (i > 0 && m[i - 1].shape()[1] != m[i].shape()[0]) {
          throw new IllegalArgumentException(op + "(): tensors " + (i - 1) + " and " + i + " with shapes " + Shapes.str(m[i - 1].shape())
              + " and " + Shapes.str(m[i].shape()) + " cannot be multiplied");
        }
        p[i] = m[i].shape()[0];
        p[i + 1] = m[i].shape()[1];
      }
      Tensor r = n == 3 ? three(m, p) : chain(m, order(p), 0, n - 1);
      if (row && column) return s.keep(r.squeeze(0, 1));
      return s.keep(row ? r.squeeze(0) : column ? r.squeeze(1) : r);
    }
  }

  /** PyTorch's choice for three: A(BC) only where it costs strictly less than (AB)C. */
  private static Tensor three(Tensor[] m, long[] p) {
    double abFirst = (double) p[0] * p[2] * (p[1] + p[3]), bcFirst = (double) p[1] * p[3] * (p[0] + p[2]);
    return abFirst > bcFirst ? m[0].mm(m[1].mm(m[2])) : m[0].mm(m[1]).mm(m[2]);
  }

  /** split[i][j]: where the cheapest product of matrices i..j splits (PyTorch's matrix_chain_order). */
  private static int[][] order(long[] p) {
    int n = p.length - 1;
    double[][] cost = new double[n][n];
    int[][] split = new int[n][n];
    for (int l = 1; l < n; l++) {
      for (int i = 0; i + l < n; i++) {
        int j = i + l;
        cost[i][j] = Double.MAX_VALUE;
        for (int k = i; k < j; k++) {
          double q = cost[i][k] + cost[k + 1][j] + (double) p[i] * p[k + 1] * p[j + 1];
          if (q < cost[i][j]) {
            cost[i][j] = q;
            split[i][j] = k;
          }
        }
      }
    }
    return split;
  }

  private static Tensor chain(Tensor[] m, int[][] split, int i, int j) {
    if (i == j) return m[i];
    return chain(m, split, i, split[i][j]).mm(chain(m, split, split[i][j] + 1, j));
  }
}
