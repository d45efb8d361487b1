package org.jtensor.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.Shapes;

/**
 * quantile and nanquantile with PyTorch's five interpolations, composed from sort, narrow/gather and
 * lerp (so their gradients are those ops'). quantile reads the order statistics at q·(n − 1) and
 * gives NaN for a row holding NaN; nanquantile reads them at q·(m − 1) over a row's m non-NaN
 * values (NaN sorts last) and gives NaN only for a row of NaN. Ranks are computed in x's dtype, as PyTorch's.
 */
public final class Quantiles {
  private Quantiles() {}

  private static final List<String> MODES = List.of("linear", "lower", "higher", "midpoint", "nearest");

  /** op is "quantile" or "nanquantile"; q a 0-dim or 1-D tensor of levels in [0, 1] (a 1-D q's levels come first in the result). */
  public static Tensor quantile(String op, Tensor x, Tensor q, Integer dim, boolean keepdim, String interpolation) {
    Handles.implOf(x, op);
    Handles.implOf(q, op);
    if (!MODES.contains(interpolation)) {
      throw new IllegalArgumentException(op + "(): interpolation must be one of linear, lower, higher, midpoint or nearest, but got "
          + interpolation);
    }
    if (x.dtype() != DType.FLOAT32 && x.dtype() != DType.FLOAT64) {  // PyTorch 2.13 refuses float16/bfloat16 too
      throw new IllegalArgumentException(op + "(): input tensor must be either float or double dtype");
    }
    if (q.dim() > 1) throw new IllegalArgumentException(op + "(): q must be a scalar or 1D tensor");
    if (q.dtype() != x.dtype()) throw new IllegalArgumentException(op + "(): q tensor must be same dtype as the input tensor");
    double[] levels = q.toDoubleArray();
    for (double v : levels) {
      if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(op + "(): q values must be in the range [0, 1]");
    }
    boolean ignoreNan = op.equals("nanquantile");
    try (TensorScope s = TensorScope.open()) {
      Tensor xs = dim == null ? x.reshape(-1) : x;
      int d = dim == null ? 0 : Shapes.wrapDim(op, dim, x.dim());
      long n = xs.dim() == 0 ? 1 : xs.shape()[d];
      // PyTorch refuses any empty input, also one whose reduced dim is not the empty one
      if (x.numel() == 0) throw new IllegalArgumentException(op + "(): input tensor must be non-empty");
      if (xs.dim() == 0) xs = xs.reshape(1);
      if (levels.length == 0) return s.keep(Tensor.zeros(noLevels(x, dim, d, keepdim), x.dtype(), x.device()));
      Tensor sorted = xs.sort(d, false).values();
      Tensor hasNan = ignoreNan ? null : xs.isnan().any(d, true);
      Tensor lastRank = ignoreNan ? xs.isnan().logicalNot().sum(d, true).sub(1L).to(x.dtype()) : null;  // m − 1 per row
      List<Tensor> each = new ArrayList<>();
      for (double level : levels) {
        Tensor v = ignoreNan ? atRanks(sorted, d, lastRank.mul(Tensor.full(new long[] {}, level, x.dtype())), interpolation)
            : atRank(sorted, d, level, n, interpolation, hasNan);
        if (!keepdim) v = v.squeeze(d);
        else if (dim == null || x.dim() == 0) v = v.reshape(ones(x.dim()));  // a 0-dim x keeps no dim
        each.add(v);
      }
      return s.keep(q.dim() == 0 ? each.get(0) : Tensor.stack(each, 0));
    }
  }

  /** quantile's value at one rank for every row: q·(n − 1) in x's dtype; a NaN row reads its last (NaN) element, which takes the gradient. */
  private static Tensor atRank(Tensor sorted, int d, double level, long n, String interpolation, Tensor hasNan) {
    boolean single = sorted.dtype() == DType.FLOAT32;
    double pos = single ? (float) ((float) level * (double) (float) (n - 1)) : level * (n - 1);
    pos = switch (interpolation) {
      case "lower" -> Math.floor(pos);
      case "higher" -> Math.ceil(pos);
      case "nearest" -> Math.rint(pos);  // torch.round: half to even
      default -> pos;
    };
    long lo = Math.min((long) Math.floor(pos), n - 1), hi = Math.min((long) Math.ceil(pos), n - 1);
    Tensor a = sorted.narrow(d, lo, 1), b = sorted.narrow(d, hi, 1);
    Tensor v = interpolation.equals("linear") ? a.lerp(b, pos - lo) : interpolation.equals("midpoint") ? a.lerp(b, 0.5) : a;
    return Tensor.where(hasNan, sorted.narrow(d, n - 1, 1), v);
  }

  /** nanquantile's values at a rank per row (a row of NaN has rank −q, read at 0: NaN). */
  private static Tensor atRanks(Tensor sorted, int d, Tensor rank, String interpolation) {
    Tensor r = rank.maskedFill(rank.lt(0.0), 0.0);
    r = switch (interpolation) {
      case "lower" -> r.floor();
      case "higher" -> r.ceil();
      case "nearest" -> r.round();
      default -> r;
    };
    Tensor lo = r.to(DType.INT64), a = sorted.gather(d, lo);
    if (interpolation.equals("linear") || interpolation.equals("midpoint")) {
      Tensor b = sorted.gather(d, r.ceil().to(DType.INT64));
      return interpolation.equals("midpoint") ? a.lerp(b, 0.5) : a.lerp(b, r.sub(lo.to(r.dtype())));
    }
    return a;
  }

  /** The shape quantile gives for an empty 1-D q: no levels first, then the reduced shape (nothing to stack). */
  private static long[] noLevels(Tensor x, Integer dim, int d, boolean keepdim) {
    List<Long> shape = new ArrayList<>(List.of(0L));
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
}
