package org.jtensor;

import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;
import org.jtensor.ops.OrderStatistics;
import org.jtensor.ops.Quantiles;
import org.jtensor.ops.ReductionOps;
import org.jtensor.ops.Selection;

/**
 * Tensor's sorting and order statistics, inherited by {@link Tensor}: sort, argsort, topk, the
 * medians, kthvalue, mode, quantile, bincount and unique. NaN sorts as PyTorch's: largest.
 */
public sealed interface SortingMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /** Sorted along dim (stable; NaN last ascending, first descending) with the positions they came from. */
  default ValuesAndIndices sort(int dim, boolean descending) {
    TensorImpl[] r = ReductionOps.sort("sort", impl("sort"), dim, descending);
    return new ValuesAndIndices(Tensor.wrap(r[0]), Tensor.wrap(r[1]));
  }

  default ValuesAndIndices sort(int dim) { return sort(dim, false); }

  /** The lower median of every element (torch.median()); NaN if any element is. */
  default Tensor median() { return OrderStatistics.median(self()); }
  /** The lower median along dim and its position (torch.median(dim)); a row with NaN gives NaN. */
  default ValuesAndIndices median(int dim, boolean keepdim) { return OrderStatistics.median(self(), dim, keepdim); }
  /** The k-th smallest (k from 1) along dim and its position, as torch.kthvalue picks among ties; NaN is largest. */
  default ValuesAndIndices kthvalue(long k, int dim, boolean keepdim) { return Selection.kthvalue(self(), k, dim, keepdim); }
  default ValuesAndIndices kthvalue(long k, int dim) { return kthvalue(k, dim, false); }
  /** kthvalue along the last dim. */
  default ValuesAndIndices kthvalue(long k) { return kthvalue(k, -1, false); }
  /** The lower median of the elements that are not NaN (torch.nanmedian()); NaN when all are. */
  default Tensor nanmedian() { return Selection.nanmedian(self()); }
  /** torch.nanmedian(dim, keepdim): NaNs ignored per line; an all-NaN line gives NaN. */
  default ValuesAndIndices nanmedian(int dim, boolean keepdim) { return Selection.nanmedian(self(), dim, keepdim); }
  /** The most frequent value along dim (the smallest of equally frequent ones) and torch.mode's position of it. */
  default ValuesAndIndices mode(int dim, boolean keepdim) { return Selection.mode(self(), dim, keepdim); }
  default ValuesAndIndices mode(int dim) { return mode(dim, false); }
  default ValuesAndIndices mode() { return mode(-1, false); }
  /** Sorted along dim 0, values only (torch.msort). */
  default Tensor msort() { try (ValuesAndIndices s = sort(0, false)) { return s.values().same("msort"); } }
  /** torch.quantile(q) of every element, linear interpolation. */
  default Tensor quantile(double q) {
    return ((StatisticsMethods) this).quantile(q, null, false, "linear");
  }
  /** torch.quantile(q, dim, keepdim): q a 0-dim or 1-D tensor of levels (a 1-D q's levels come first). */
  default Tensor quantile(Tensor q, Integer dim, boolean keepdim) { return Quantiles.quantile("quantile", self(), q, dim, keepdim, "linear"); }
  /** torch.bincount(weights, minlength): weights may be null. */
  default Tensor bincount(Tensor weights, long minlength) { return OrderStatistics.bincount(self(), weights, minlength); }
  default Tensor bincount() { return bincount(null, 0); }
  /** torch.unique(x): the distinct values, sorted. */
  default Tensor unique() { try (Unique u = Unique.of(self(), false, false)) { return u.values().detach(); } }
  /** torch.unique(x, return_inverse, return_counts): the parts not asked for are null. */
  default Unique unique(boolean returnInverse, boolean returnCounts) { return Unique.of(self(), returnInverse, returnCounts); }

  default ValuesAndIndices sort() { return sort(-1, false); }

  /** The positions that sort along dim (int64). */
  default Tensor argsort(int dim, boolean descending) {
    TensorImpl[] r = ReductionOps.sort("argsort", impl("argsort"), dim, descending);
    r[0].release();
    return Tensor.wrap(r[1]);
  }

  default Tensor argsort(int dim) { return argsort(dim, false); }

  /** The k largest (or smallest) elements along dim and their positions, sorted. */
  default ValuesAndIndices topk(int k, int dim, boolean largest) {
    TensorImpl t = impl("topk");
    int d = Shapes.wrapDim("topk", dim, t.dim());
    long size = t.dim() == 0 ? 1 : t.sizes()[d];
    if (k < 0 || k > size) throw new IllegalArgumentException("topk(): selected index k out of range: k " + k + " for size " + size);
    if (t.dtype() == DType.BOOL) throw new UnsupportedOperationException("topk(): topk does not support bool dtypes on CPU");  // PyTorch 2.13, k = 0 and 0-dim too
    TensorImpl[] r = ReductionOps.sort("topk", t, d, largest);
    try (Tensor v = Tensor.wrap(r[0]); Tensor i = Tensor.wrap(r[1])) {
      if (t.dim() == 0) return new ValuesAndIndices(v.view(v.shape()), i.view(i.shape()));
      try (Tensor vk = v.narrow(d, 0, k); Tensor ik = i.narrow(d, 0, k)) {
        Tensor values = vk.contiguous();
        try {
          return new ValuesAndIndices(values, ik.contiguous());
        } catch (RuntimeException | Error e) {  // the indices' copy failed (out of memory): the values' copy is no one's
          values.close();
          throw e;
        }
      }
    }
  }

  default ValuesAndIndices topk(int k) { return topk(k, -1, true); }
}
