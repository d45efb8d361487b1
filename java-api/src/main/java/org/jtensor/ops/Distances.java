package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * torch.dist, torch.cdist, F.pairwise_distance and F.pdist, composed from sub, norm, indexSelect and
 * (cdist's Euclidean path for more than 25 rows, as PyTorch's) one batched GEMM; a zero distance
 * passes no gradient, as PyTorch's.
 */
public final class Distances {
  private Distances() {}

  /** torch.dist: the p-norm of self − other, broadcast; 0-dim. */
  public static Tensor dist(Tensor a, Tensor b, double p) {
    Handles.implOf(a, "dist");
    Handles.implOf(b, "dist");
    Shapes.broadcastShapes("dist", a.shape(), b.shape());
    DType rt = TypePromotion.start().tensor(Handles.impl(a, "dist")).tensor(Handles.impl(b, "dist")).result();
    if (!rt.isFloatingPoint()) {
      throw new IllegalArgumentException("dist(): norm(): input dtype should be either floating point or complex. Got "
          + ScalarTypes.name(rt) + " instead.");
    }
    try (TensorScope s = TensorScope.open()) {
      return s.keep(a.sub(b).norm(p, null, false));
    }
  }

  /** F.pairwise_distance: the p-norm of x1 − x2 + eps over the last dim of the broadcast shape. */
  public static Tensor pairwiseDistance(Tensor x1, Tensor x2, double p, double eps, boolean keepdim) {
    String op = "pairwiseDistance";
    int d1 = Handles.implOf(x1, op).dim(), d2 = Handles.implOf(x2, op).dim();
    Shapes.broadcastShapes(op, x1.shape(), x2.shape());
    try (TensorScope s = TensorScope.open()) {
      Tensor diff = x1.sub(x2).add(eps);
      if (!diff.dtype().isFloatingPoint()) diff = diff.to(DType.FLOAT32);  // int64 + eps is float32, as Python's
      return s.keep(diff.norm(p, new int[] {Math.max(d1, d2) - 1}, keepdim));
    }
  }

  /** F.pdist: the p-norm distances between the rows of a 2-D input, pair (i, j) for i < j in row-major order. */
  public static Tensor pdist(Tensor x, double p) {
    String op = "pdist";
    TensorImpl t = Handles.implOf(x, op);
    if (t.dim() != 2) throw new IllegalArgumentException(op + "(): pdist only supports 2D tensors, got: " + t.dim() + "D");
    if (!t.dtype().isFloatingPoint()) throw new IllegalArgumentException(op + "(): pdist only supports floating-point dtypes");
    if (!(p >= 0)) throw new IllegalArgumentException(op + "(): pdist only supports non-negative p values");
    long n = t.sizes()[0];
    long pairs = n * (n - 1) / 2;
    if (pairs > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(op + "(): " + n + " rows make " + pairs + " pairs, more than a Java array of pair indices holds");
    long[] first = new long[(int) Math.max(pairs, 0)], second = new long[first.length];
    for (long i = 0, k = 0; i < n; i++) {
      for (long j = i + 1; j < n; j++, k++) {
        first[(int) k] = i;
        second[(int) k] = j;
      }
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor a = x.indexSelect(0, Tensor.fromArray(first).to(x.device())), b = x.indexSelect(0, Tensor.fromArray(second).to(x.device()));
      return s.keep(a.sub(b).norm(p, new int[] {1}, false));
    }
  }

  private static final java.util.List<String> MODES =
      java.util.List.of("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist");

  /**
   * torch.cdist(x1 [..., P, M], x2 [..., R, M], p, computeMode): [..., P, R], the batch dims
   * broadcast. computeMode null is PyTorch's default: for p = 2 with P or R over 25, the GEMM form
   * √(|a|² − 2a·b + |b|²) clamped at 0, as PyTorch's; else each distance from the differences.
   */
  public static Tensor cdist(Tensor x1, Tensor x2, double p, String computeMode) {
    String op = "cdist";
    TensorImpl a = Handles.implOf(x1, op), b = Handles.implOf(x2, op);
    String mode = computeMode == null ? MODES.get(0) : computeMode;
    if (!MODES.contains(mode)) throw new IllegalArgumentException(op + "(): " + mode + " is not a valid value for compute_mode");
    if (a.dim() < 2) throw new IllegalArgumentException(op + "(): cdist only supports at least 2D tensors, X1 got: " + a.dim() + "D");
    if (b.dim() < 2) throw new IllegalArgumentException(op + "(): cdist only supports at least 2D tensors, X2 got: " + b.dim() + "D");
    long m = a.sizes()[a.dim() - 1];
    if (m != b.sizes()[b.dim() - 1]) {
      throw new IllegalArgumentException(op + "(): X1 and X2 must have the same number of columns. X1: " + m + " X2: " + b.sizes()[b.dim() - 1]);
    }
    for (TensorImpl t : new TensorImpl[] {a, b}) {
      if (!t.dtype().isFloatingPoint()) {
        throw new IllegalArgumentException(op + "(): cdist only supports floating-point dtypes, " + (t == a ? "X1" : "X2") + " got: "
            + ScalarTypes.name(t.dtype()));
      }
    }
    if (!(p >= 0)) throw new IllegalArgumentException(op + "(): cdist only supports non-negative p values");
    if (a.dtype() != b.dtype()) throw new IllegalArgumentException(op + "(): " + ScalarTypes.expected(a.dtype(), b.dtype()));
    if (a.dtype().itemSize() == 2) throw ScalarTypes.notImplemented(op, "cdist", a.dtype());
    long rows1 = a.sizes()[a.dim() - 2], rows2 = b.sizes()[b.dim() - 2];
    long[] batch = Shapes.broadcastShapes(op, Arrays.copyOf(a.sizes(), a.dim() - 2), Arrays.copyOf(b.sizes(), b.dim() - 2));
    try (TensorScope s = TensorScope.open()) {
      Tensor e1 = x1.expand(with(batch, rows1, m)), e2 = x2.expand(with(batch, rows2, m));
      boolean gemm = p == 2 && (mode.equals(MODES.get(1)) || mode.equals(MODES.get(0)) && (rows1 > 25 || rows2 > 25));
      if (!gemm) return s.keep(e1.unsqueeze(-2).sub(e2.unsqueeze(-3)).norm(p, new int[] {-1}, false));
      Tensor n1 = e1.mul(e1).sum(-1, true), n2 = e2.mul(e2).sum(-1, true);
      Tensor left = Tensor.cat(java.util.List.of(e1.mul(-2.0), n1, Tensor.onesLike(n1)), -1);
      Tensor right = Tensor.cat(java.util.List.of(e2, Tensor.onesLike(n2), n2), -1);
      Tensor squared = left.matmul(right.mT()), positive = squared.gt(0.0);
      // √ of the clamped square; where it is 0 the root's infinite derivative is kept out, so no gradient flows, as PyTorch's
      return s.keep(Tensor.where(positive, Tensor.where(positive, squared, 1.0).sqrt(), 0.0));
    }
  }

  private static long[] with(long[] batch, long rows, long cols) {
    long[] shape = Arrays.copyOf(batch, batch.length + 2);
    shape[batch.length] = rows;
    shape[batch.length + 1] = cols;
    return shape;
  }
}
