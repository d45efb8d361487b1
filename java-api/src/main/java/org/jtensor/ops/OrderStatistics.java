package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ValuesAndIndices;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;

/**
 * median, quantile and bincount, composed from sort, gather and scatterAdd (so their gradients are
 * theirs), with PyTorch's rules: a median is the lower of the two middle values, a row holding NaN
 * has NaN as its median and quantiles (and the first NaN's position as the median's index), and
 * quantile interpolates linearly between the order statistics at q·(n − 1).
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
   * quantile(q) along dim (null: of every element): q a 0-dim or 1-D tensor of levels in [0, 1]; a
   * 1-D q puts its levels first in the result, as PyTorch's.
   */
  public static Tensor quantile(Tensor x, Tensor q, Integer dim, boolean keepdim) {
    String op = "quantile";
    if (x.dtype() != DType.FLOAT32 && x.dtype() != DType.FLOAT64) {  // PyTorch 2.13 refuses float16/bfloat16 too
      throw new IllegalArgumentException(op + "(): input tensor must be either float or double dtype");
    }
    if (q.dim() > 1) throw new IllegalArgumentException(op + "(): q must be a scalar or 1D tensor");
    if (q.dtype() != x.dtype()) throw new IllegalArgumentException(op + "(): q tensor must be same dtype as the input tensor");
    double[] levels = q.toDoubleArray();
    for (double v : levels) {
      if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(op + "(): q values must be in the range [0, 1]");
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor xs = dim == null ? x.reshape(-1) : x;
      int d = dim == null ? 0 : Shapes.wrapDim(op, dim, x.dim());
      long n = xs.dim() == 0 ? 1 : xs.shape()[d];
      // PyTorch refuses any empty input, also one whose reduced dim is not the empty one
      if (x.numel() == 0) throw new IllegalArgumentException(op + "(): input tensor must be non-empty");
      if (xs.dim() == 0) xs = xs.reshape(1);
      if (levels.length == 0) return s.keep(Tensor.zeros(noLevels(x, dim, d, keepdim), x.dtype(), x.device()));
      Tensor sorted = xs.sort(d, false).values();
      Tensor hasNan = xs.isnan().any(d, true);
      java.util.List<Tensor> each = new java.util.ArrayList<>();
      boolean single = x.dtype() == DType.FLOAT32;
      for (double level : levels) {
        // PyTorch's rank q · (n − 1) and weight rank − floor(rank) in x's dtype, then its lerp
        double pos = single ? (float) ((float) level * (double) (float) (n - 1)) : level * (n - 1);
        long lo = Math.min((long) Math.floor(pos), n - 1), hi = Math.min((long) Math.ceil(pos), n - 1);
        Tensor a = sorted.narrow(d, lo, 1), b = sorted.narrow(d, hi, 1);
        Tensor v = a.lerp(b, pos - lo);
        v = Tensor.where(hasNan, sorted.narrow(d, n - 1, 1), v);  // a NaN row reads its last (NaN) element, which takes the gradient
        if (!keepdim) v = v.squeeze(d);
        else if (dim == null || x.dim() == 0) v = v.reshape(ones(x.dim()));  // a 0-dim x keeps no dim
        each.add(v);
      }
      return s.keep(q.dim() == 0 ? each.get(0) : Tensor.stack(each, 0));
    }
  }

  /** The shape quantile gives for an empty 1-D q: no levels first, then the reduced shape (nothing to stack). */
  private static long[] noLevels(Tensor x, Integer dim, int d, boolean keepdim) {
    java.util.List<Long> shape = new java.util.ArrayList<>(java.util.List.of(0L));
    for (int k = 0; k < x.dim(); k++) {
      if (dim == null || k == d) {
        if (keepdim) shape.add(1L);
      } else {
        shape.add(x.shape()[k]);
      }
    }
    return shape.stream().mapToLong(Long::longValue).toArray();
  }

  private static long[] ones(int n) {
    long[] s = new long[n];
    java.util.Arrays.fill(s, 1);
    return s;
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
