package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.Op;
import org.jtensor.ops.Differences;
import org.jtensor.ops.Ops;
import org.jtensor.ops.ScanOps;

/**
 * Tensor's scans beyond cumsum(dim)/cumprod(dim) (ReductionMethods) and unique over a dim,
 * inherited by {@link Tensor}: PyTorch 2.13's semantics; cummax, cummin and logcumsumexp run the scan
 * kernel on CPU and CUDA (a thread per line there).
 */
public sealed interface ScanMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  private Tensor self() {
    return (Tensor) this;
  }

  /** cumsum with PyTorch's dtype argument: the input is converted to dtype first, then summed; null is cumsum(dim). */
  default Tensor cumsum(int dim, DType dtype) { return ScanOps.withDtype(self(), "cumsum", dim, dtype, c -> c.cumsum(dim)); }
  /** cumprod with PyTorch's dtype argument: the input is converted to dtype first, then multiplied; null is cumprod(dim). */
  default Tensor cumprod(int dim, DType dtype) { return ScanOps.withDtype(self(), "cumprod", dim, dtype, c -> c.cumprod(dim)); }

  /** The running maximum along dim and its position (the last of equal maxima; a NaN, once seen, stays). */
  default ValuesAndIndices cummax(int dim) { return cumExtreme(Ops.CUMMAX, dim); }
  /** The running minimum along dim and its position (the last of equal minima; a NaN, once seen, stays). */
  default ValuesAndIndices cummin(int dim) { return cumExtreme(Ops.CUMMIN, dim); }
  /** log(Σ_{j≤i} exp(x_j)) along dim, without overflow; floating types only. */
  default Tensor logcumsumexp(int dim) { return Tensor.wrap(ScanOps.logcumsumexp(impl("logcumsumexp"), dim)); }

  /** torch.diff: the first forward difference along the last dim (xor for bool). */
  default Tensor diff() { return diff(1, -1, null, null); }
  /** The n-th forward difference along dim; n past the dim's length gives an empty result. */
  default Tensor diff(long n, int dim) { return diff(n, dim, null, null); }
  /** diff of prepend, this tensor and append (either null) joined along dim, their dtypes promoting. */
  default Tensor diff(long n, int dim, Tensor prepend, Tensor append) { return Differences.diff(self(), n, dim, prepend, append); }

  private ValuesAndIndices cumExtreme(Op op, int dim) {
    TensorImpl[] r = ScanOps.cumExtreme(op, impl(op.name), dim);
    return new ValuesAndIndices(Tensor.wrap(r[0]), Tensor.wrap(r[1]));
  }

  /**
   * torch.unique(x, sorted, return_inverse, return_counts, dim): dim null is every element, else the
   * distinct slices along dim. sorted is accepted as PyTorch's CPU takes it: the result is sorted either way.
   */
  default Unique unique(boolean sorted, boolean returnInverse, boolean returnCounts, Integer dim) {
    return dim == null ? Unique.of(self(), returnInverse, returnCounts) : Unique.ofDim(self(), dim, returnInverse, returnCounts);
  }

  /** torch.unique_consecutive(x, return_inverse, return_counts, dim): runs of equal elements (dim null) or slices, kept once. */
  default Unique uniqueConsecutive(boolean returnInverse, boolean returnCounts, Integer dim) {
    return Unique.consecutive(self(), dim, returnInverse, returnCounts);
  }
}
