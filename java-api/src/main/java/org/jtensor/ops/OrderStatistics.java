package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;

/**
 * median and bincount, composed from sort, gather and scatterAdd (so their gradients are theirs),
 * with PyTorch's rules: a median is the lower of the two middle values, a row holding NaN has NaN as
 * its median (and the first NaN's position as its index). quantile is {@link Quantiles}.
 */
public final class OrderStatistics {
  private OrderStatistics() {}

  /** The lower median along dim with its position; a row with NaN gives NaN at its first NaN. */
  public static ValuesAndIndices median(Tensor x, int dim, boolean keepdim) {
    String op = "median";
    refuseBool(x, "median_out");
    int d = Shapes.wrapDim(op, dim, x.dim());
    long n = x.dim() == 0 ? 1 : x.shape()[d];
    if (n == 0) throw new IllegalArgumentException(op + "(): Expected reduction dim " + dim + " to have non-zero size.");
    try (TensorScope s = TensorScope.open()) {
      Tensor xs = x.dim() == 0 ? x.reshape(1) : x;
      int dd = x.dim() == 0 ? 0 : d;
      ValuesAndIndices sorted = xs.sort(dd, false);  // NaN last, stable: the first NaN in order is the first NaN
      Tensor nans = xs.isnan().sum(new int[] {dd}, true);
      Tensor k = Tensor.where(nans.gt(0L), nans.neg().add(n), (n - 1) / 2).to(DType.INT64);  // the position to read
      Tensor values = sorted.values().gather(dd, k), indices = sorted.indices().gather(dd, k);
      if (!keepdim || x.dim() == 0) {
        values = x.dim() == 0 ? values.reshape() : values.squeeze(dd);
        indices = x.dim() == 0 ? indices.reshape() : indices.squeeze(dd);
      }
      return new ValuesAndIndices(s.keep(values), s.keep(indices));
    }
  }

  /** PyTorch's median kernels take every dtype but bool (sort, which median is made of here, takes bool too); kernel: the name its error gives. */
  private static void refuseBool(Tensor x, String kernel) {
    if (x.dtype() == DType.BOOL) throw ScalarTypes.notImplemented("median", kernel, DType.BOOL);
  }

  /** The lower median of every element (NaN if any is). */
  public static Tensor median(Tensor x) {
    refuseBool(x, "median_cpu");
    // PyTorch 2.13 fills NaN for an empty floating input (its integer answer is NaN cast, undefined: refused here)
    if (x.numel() == 0 && x.dtype().isFloatingPoint()) {
      try (Tensor zero = x.sum()) {
        return zero.mul(Double.NaN);  // 0 · NaN keeps the graph: the gradient is empty, as PyTorch's
      }
    }
    if (x.numel() == 0) throw new IllegalArgumentException("median(): input must not be empty");
    // the value from a detached sort, recorded as median() itself: PyTorch's gradient is shared
    // evenly by the elements equal to it (by the NaNs when it is NaN), not sent to one position
    org.jtensor.core.TensorImpl value;
    try (Tensor xd = x.detach(); Tensor flat = xd.reshape(-1); ValuesAndIndices m = median(flat, 0, false); Tensor v = m.values().clone()) {
      value = Handles.impl(v, "median");
      value.retain();
    }
    return Handles.wrap(Recorder.recorded(Ops.MEDIAN_ALL, "median", new org.jtensor.core.TensorImpl[] {Handles.impl(x, "median")}, null, value));
  }

  /**
   * Counts of each value of a 1-D non-negative integer tensor (or the sums of weights at them),
   * max(x) + 1 long at least minlength: int64 counts, or float32 sums of float32 weights and float64
   * sums of any others, as PyTorch's.
   */
  public static Tensor bincount(Tensor x, Tensor weights, long minlength) {
    String op = "bincount";
    if (x.dim() != 1 || x.dtype().isFloatingPoint() || x.dtype() == DType.BOOL) {
      throw new IllegalArgumentException(op + "(): bincount only supports 1-d non-negative integral inputs.");
    }
    if (minlength < 0) throw new IllegalArgumentException(op + "(): minlength should be >= 0");
    if (weights != null && (weights.dim() != 1 || weights.numel() != x.numel())) {
      throw new IllegalArgumentException(op + "(): weights should be 1-d and have the same length as input");
    }
    try (TensorScope s = TensorScope.open()) {
      long max = x.numel() == 0 ? -1 : (long) x.amax().item(), min = x.numel() == 0 ? 0 : (long) x.amin().item();
      if (min < 0) throw new IllegalArgumentException(op + "(): bincount only supports 1-d non-negative integral inputs.");
      long length = Math.max(max + 1, minlength);
      // PyTorch 2.13 counts float32 weights in float32 and every other dtype in float64 (float16 in
      // float16 stopped at 2048 ones)
      DType out = weights == null ? DType.INT64 : weights.dtype() == DType.FLOAT32 ? DType.FLOAT32 : DType.FLOAT64;
      Tensor src = weights == null ? Tensor.ones(new long[] {x.numel()}, out, x.device()) : weights.to(out);
      return s.keep(Tensor.zeros(new long[] {length}, out, x.device()).scatterAdd(0, x.to(DType.INT64), src));
    }
  }
}
