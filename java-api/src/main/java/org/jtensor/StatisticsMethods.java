package org.jtensor;

import org.jtensor.ops.Covariance;
import org.jtensor.ops.Histograms;
import org.jtensor.ops.Quantiles;
import org.jtensor.ops.ReductionOps;
import org.jtensor.ops.Renorm;
import org.jtensor.ops.Statistics;

/**
 * Tensor's statistics beyond the reductions (ReductionMethods): aminmax, varMean/stdMean,
 * quantile/nanquantile with PyTorch's interpolations, cov, corrcoef, histc, histogram and renorm;
 * composed, so each is differentiable where its parts are (histograms are not). Inherited by {@link Tensor}.
 */
public sealed interface StatisticsMethods permits Tensor {
  private Tensor self() {
    return (Tensor) this;
  }

  /** torch.count_nonzero(dim): how many elements are not 0 (NaN counts) over dims, none given: every element; int64, no gradient. */
  default Tensor countNonzero(int... dims) {
    ReductionOps.checkDims("countNonzero", self().impl("countNonzero").dim(), dims);
    try (Tensor nonzero = self().ne(0L)) {
      return nonzero.sum(dims, false);
    }
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

  /** torch.cov: the covariance of the rows (variables) over the columns (observations), Bessel's correction. */
  default Tensor cov() { return cov(1, null, null); }

  /** torch.cov(correction, fweights, aweights): integral frequency and floating observation weights, either null. */
  default Tensor cov(long correction, Tensor fweights, Tensor aweights) { return Covariance.cov("cov", self(), correction, fweights, aweights); }

  /** torch.corrcoef: Pearson's correlation coefficients of the rows, clipped to [-1, 1]. */
  default Tensor corrcoef() { return Covariance.corrcoef(self()); }

  /** torch.histc: counts in bins equal bins over [min, max] (min == max: the data's range), in this tensor's floating dtype. */
  default Tensor histc(long bins, double min, double max) { return Histograms.histc(self(), bins, min, max); }

  default Tensor histc(long bins) { return histc(bins, 0, 0); }

  /** torch.histogram(bins, range, weight, density): range {min, max} or null (the data's); weight may be null. */
  default Histogram histogram(long bins, double[] range, Tensor weight, boolean density) {
    Tensor[] r = Histograms.histogram(self(), bins, null, range, weight, density);
    return new Histogram(r[0], r[1]);
  }

  default Histogram histogram(long bins) { return histogram(bins, null, null, false); }

  /** torch.histogram with the bin edges given (1-D, increasing, this tensor's dtype). */
  default Histogram histogram(Tensor bins, Tensor weight, boolean density) {
    Tensor[] r = Histograms.histogram(self(), 0, bins, null, weight, density);
    return new Histogram(r[0], r[1]);
  }

  /** torch.renorm: each slice along dim with p-norm above maxnorm rescaled to maxnorm (over norm + 1e-7). */
  default Tensor renorm(double p, int dim, double maxnorm) { return Renorm.renorm(self(), p, dim, maxnorm); }
}
