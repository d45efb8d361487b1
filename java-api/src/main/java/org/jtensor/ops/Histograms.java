package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.core.Shapes;
import org.jtensor.core.TensorImpl;

/**
 * torch.histc and torch.histogram over floating inputs, composed from comparisons, maskedSelect and
 * bincount. histc bins each element by PyTorch's division, (x − min)·bins / (max − min) in x's dtype;
 * histogram by where it falls among the edges (PyTorch's division corrected by a local search gives
 * that same bin). Elements outside [first edge, last edge] and NaN are not counted; the last edge
 * belongs to the last bin.
 */
public final class Histograms {
  private Histograms() {}

  /** torch.histc: bins equal bins over [min, max], or over the data's range when min == max (widened by 1 each way if still equal). */
  public static Tensor histc(Tensor x, long bins, double min, double max) {
    TensorImpl t = Handles.implOf(x, "histc");
    if (!t.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented("histc", "histogram_cpu", t.dtype());
    if (bins <= 0) throw new IllegalArgumentException("histc(): torch.histogram(): bins must be > 0, but got " + bins + " for dimension 0");
    double lo = min, hi = max;
    if (lo == hi && t.numel() > 0) {
      try (Tensor a = x.amin(); Tensor b = x.amax()) {
        lo = a.item();
        hi = b.item();
      }
    }
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
    if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
      throw new IllegalArgumentException("histc(): torch.histc: range of [" + str(lo) + ", " + str(hi) + "] is not finite");
    }
    if (!(lo < hi)) throw new IllegalArgumentException("histc(): torch.histc: max must be larger than min");
    try (TensorScope s = TensorScope.open()) {
      double[] e = Tensor.linspace(lo, hi, bins + 1, t.dtype()).toDoubleArray();
      double left = e[0], right = e[(int) bins];
      double width = t.dtype() == DType.FLOAT64 ? right - left : Tensor.scalar(right - left, t.dtype()).item();  // in x's dtype
      Tensor flat = x.reshape(-1).detach(), in = flat.maskedSelect(flat.ge(left).logicalAnd(flat.le(right)));
      Tensor bin = in.sub(left).mul(bins).div(width).to(DType.INT64).clamp(0L, bins - 1);  // the last edge into the last bin
      return s.keep(bin.bincount(null, bins).to(t.dtype()));
    }
  }

  /** PyTorch's printing of a range bound: 1 for 1.0, inf, nan. */
  private static String str(double v) {
    if (Double.isNaN(v)) return "nan";
    if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  /**
   * torch.histogram with bins equal bins over range (null: the data's, or [0, 1] for no data; an
   * empty range widened by 0.5 each way), or with edges (binEdges, 1-D, increasing); weight (x's
   * shape and dtype) may be null; density divides by the total and each bin's width. {hist, edges}.
   */
  public static Tensor[] histogram(Tensor x, long bins, Tensor binEdges, double[] range, Tensor weight, boolean density) {
    String op = "histogram";
    TensorImpl t = Handles.implOf(x, op);
    if (!t.dtype().isFloatingPoint()) throw ScalarTypes.notImplemented(op, "histogramdd", t.dtype());
    if (binEdges != null) {
      TensorImpl b = Handles.implOf(binEdges, op);
      if (b.dim() != 1) {
        throw new IllegalArgumentException(op + "(): torch.histogramdd: bins tensor should have one dimension, but got " + b.dim()
            + " dimensions in the bins tensor for dimension 0");
      }
      bins = b.numel() - 1;
    }
    if (bins <= 0) throw new IllegalArgumentException(op + "(): torch.histogram(): bins must be > 0, but got " + bins + " for dimension 0");
    if (binEdges != null && binEdges.dtype() != t.dtype()) {
      throw new IllegalArgumentException(op + "(): torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
          + "with dtype " + t.dtype() + " and bins for dimension 0 with dtype " + binEdges.dtype());
    }
    if (weight != null) {
      TensorImpl w = Handles.implOf(weight, op);
      if (!java.util.Arrays.equals(w.sizes(), t.sizes())) {
        throw new IllegalArgumentException(op + "(): torch.histogramdd: if weight tensor is provided it should have the same shape as the input "
            + "tensor excluding its innermost dimension, but got input with shape [" + t.numel() + ", 1] and weight with shape "
            + Shapes.str(w.sizes()));
      }
      if (w.dtype() != t.dtype()) {
        throw new IllegalArgumentException(op + "(): torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
            + "the same dtype, but got input(" + t.dtype() + "), and weight(" + w.dtype() + ")");
      }
    }
    try (TensorScope s = TensorScope.open()) {
      double[] r = binEdges != null ? null : outerEdges(x, range);
      Tensor edges = binEdges != null ? binEdges.detach() : Tensor.linspace(r[0], r[1], bins + 1, t.dtype());
      double[] e = edges.toDoubleArray();
      Tensor flat = x.reshape(-1).detach(), inside = flat.ge(e[0]).logicalAnd(flat.le(e[(int) bins]));
      Tensor in = flat.maskedSelect(inside);
      Tensor bin = Tensor.searchsorted(edges, in, true).sub(1L).clamp(0L, bins - 1);  // the last edge into the last bin
      Tensor hist = bin.bincount(weight == null ? null : weight.reshape(-1).detach().maskedSelect(inside), bins).to(t.dtype());
      if (density) hist = hist.div(hist.sum()).div(edges.diff());
      return new Tensor[] {s.keep(hist), s.keep(binEdges != null ? edges.clone() : edges)};
    }
  }

  /** The first and last edges of equal bins: range, or the data's min and max ([0, 1] without data), widened by 0.5 when equal. */
  private static double[] outerEdges(Tensor x, double[] range) {
    String op = "histogram";
    double lo = 0, hi = 1;
    if (range != null) {
      if (range.length != 2) throw new IllegalArgumentException(op + "(): range must hold 2 values (min, max), got " + range.length);
      lo = range[0];
      hi = range[1];
    } else if (x.numel() > 0) {
      try (Tensor a = x.amin(); Tensor b = x.amax()) {
        lo = a.item();
        hi = b.item();
      }
    }
    if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
      throw new IllegalArgumentException(op + "(): torch.histogramdd: dimension 0's range [" + str(lo) + ", " + str(hi) + "] is not finite");
    }
    if (lo > hi) {
      throw new IllegalArgumentException(op + "(): torch.histogramdd: min should not exceed max, but got min " + str(lo) + " max " + str(hi)
          + " for dimension 0");
    }
    return lo == hi ? new double[] {lo - 0.5, hi + 0.5} : new double[] {lo, hi};
  }
}
