package org.jtensor;

import org.jtensor.ops.Quantiles;
import org.jtensor.ops.Statistics;

/**
 * Tensor's statistics beyond the reductions (ReductionMethods): aminmax, varMean/stdMean, and
 * quantile/nanquantile with PyTorch's interpolations; composed, so each is differentiable where its
 * parts are. Inherited by {@link Tensor}.
 */
public sealed interface StatisticsMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.aminmax: the min and max of every element (0-dim each). */
  default MinMax aminmax() { return aminmax(null, false); }

  /** torch.aminmax(dim, keepdim): along dim (null: every element); an empty reduction is refused. */
  default MinMax aminmax(Integer dim, boolean keepdim) {
    Tensor[] r = Statistics.aminmax(self(), dim, keepdim);
    return new MinMax(r[0], r[1]);
  }

  /** torch.var_mean: var (Bessel's correction) and mean of every element. */
  default VarMean varMean() { return varMean(null, 1, false); }

  /** torch.var_mean(dim, correction, keepdim): dims null is every element; floating types only. */
  default VarMean varMean(int[] dims, long correction, boolean keepdim) {
    Tensor[] r = Statistics.spreadAndMean("varMean", self(), dims, correction, keepdim, false);
    return new VarMean(r[0], r[1]);
  }

  /** torch.std_mean: std (Bessel's correction) and mean of every element. */
  default StdMean stdMean() { return stdMean(null, 1, false); }

  /** torch.std_mean(dim, correction, keepdim): dims null is every element; floating types only. */
  default StdMean stdMean(int[] dims, long correction, boolean keepdim) {
    Tensor[] r = Statistics.spreadAndMean("stdMean", self(), dims, correction, keepdim, true);
    return new StdMean(r[0], r[1]);
  }

  /**
   * torch.quantile(q, dim, keepdim, interpolation): "linear", "lower", "higher", "midpoint" or
   * "nearest" between the order statistics around q·(n − 1); a row holding NaN gives NaN.
   */
  default Tensor quantile(Tensor q, Integer dim, boolean keepdim, String interpolation) {
    return Quantiles.quantile("quantile", self(), q, dim, keepdim, interpolation);
  }

  /** quantile of one level q (in this tensor's dtype, as PyTorch's). */
  default Tensor quantile(double q, Integer dim, boolean keepdim, String interpolation) {
    try (Tensor l = level(q)) { return quantile(l, dim, keepdim, interpolation); }
  }

  /** torch.nanquantile: quantile over each row's non-NaN values; a row of NaN alone gives NaN. */
  default Tensor nanquantile(Tensor q, Integer dim, boolean keepdim, String interpolation) {
    return Quantiles.quantile("nanquantile", self(), q, dim, keepdim, interpolation);
  }

  default Tensor nanquantile(double q, Integer dim, boolean keepdim, String interpolation) {
    try (Tensor l = level(q)) { return nanquantile(l, dim, keepdim, interpolation); }
  }

  default Tensor nanquantile(Tensor q, Integer dim, boolean keepdim) { return nanquantile(q, dim, keepdim, "linear"); }

  /** nanquantile of every element, linear interpolation. */
  default Tensor nanquantile(double q) { return nanquantile(q, null, false, "linear"); }

  private Tensor level(double q) {  // a 0-dim level in x's dtype, as PyTorch's scalar_tensor(q, self.options())
    return Tensor.full(new long[] {}, q, self().dtype() == DType.FLOAT32 ? DType.FLOAT32 : DType.FLOAT64);
  }
}
