package org.jtensor.ops;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;

/**
 * torch.multinomial over a 1-D or 2-D tensor of non-negative weights (each row one distribution,
 * not necessarily normalised), in tensor ops on the input's device. With replacement: each
 * uniform u picks the first category whose normalised cumulative weight exceeds it. Without: the
 * categories ordered by E/w with E exponential (the exponential race, equivalent to drawing one at
 * a time and renormalising); the first numSamples. Same distribution as PyTorch, not its bits.
 */
public final class Sampling {
  private Sampling() {}

  public static Tensor multinomial(Tensor probs, long numSamples, boolean replacement, Generator g) {
    String op = "multinomial";
    if (g == null) throw new IllegalArgumentException(op + "(): expected a Generator, got null");
    if (probs.dim() != 1 && probs.dim() != 2) throw new IllegalArgumentException(op + "(): prob_dist must be 1 or 2 dim, got " + probs.dim());
    if (!probs.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): only supports floating-point dtypes for input, got: " + probs.dtype());
    }
    long categories = probs.shape()[probs.dim() - 1];
    if (numSamples <= 0) throw new IllegalArgumentException(op + "(): cannot sample n_sample <= 0 samples");
    if (!replacement && numSamples > categories) {
      throw new IllegalArgumentException(op + "(): cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    }
    if (categories > (1L << 24)) throw new IllegalArgumentException(op + "(): number of categories cannot exceed 2^24");
    if (probs.device().isMeta()) {  // shapes only, as PyTorch's meta multinomial: no weights to draw from
      return Tensor.empty(shapeOf(probs, probs.dim() == 1 ? 1 : probs.shape()[0], numSamples), DType.INT64, probs.device());
    }
    try (TensorScope s = TensorScope.open()) {
      Tensor rows = (probs.dim() == 1 ? probs.unsqueeze(0) : probs).to(DType.FLOAT64);
      long r = rows.shape()[0];
      if (r == 0) return s.keep(Tensor.empty(shapeOf(probs, r, numSamples), DType.INT64, probs.device()));
      if (categories == 0) throw new IllegalArgumentException(op + "(): invalid multinomial distribution (sum of probabilities <= 0)");
      double smallest = rows.amin().item(), largest = rows.amax().item();
      if (!(smallest >= 0) || !Double.isFinite(largest)) {
        throw new IllegalArgumentException(op + "(): probability tensor contains either `inf`, `nan` or element < 0");
      }
      Tensor rowMax = rows.amax(1, true);
      rows = rows.div(rowMax.clamp(Double.MIN_VALUE, Double.MAX_VALUE));  // each row scaled to a maximum of 1: no sum overflows
      double least = rows.sum(-1, true).amin().item();
      if (!(least > 0)) throw new IllegalArgumentException(op + "(): invalid multinomial distribution (sum of probabilities <= 0)");
      Tensor picked;
      if (replacement) {
        Tensor cdf = rows.cumsum(-1);
        cdf = cdf.div(cdf.narrow(1, categories - 1, 1));  // the last is exactly 1
        Tensor u = Tensor.rand(new long[] {r, numSamples}, DType.FLOAT64, g).to(probs.device());
        picked = countAtOrBelow(cdf, u, categories, numSamples).clamp(0, categories - 1);
      } else {
        // fewer positive weights than samples is no error (PyTorch 2.13 gives the zero-weight categories after the others):
        // their race is +inf (or NaN), which sorts after every positive weight's
        Tensor u = Tensor.rand(new long[] {r, categories}, DType.FLOAT64, g).to(probs.device());
        // log(E / w), E exponential: the order of E / w without its overflow for tiny w (+inf where w = 0)
        Tensor race = u.neg().log1p().neg().log().sub(rows.log());
        picked = race.sort(1, false).indices().narrow(1, 0, numSamples);
      }
      picked = picked.to(DType.INT64);
      return s.keep(probs.dim() == 1 ? picked.squeeze(0) : picked);
    }
  }

  /**
   * For each u[i][j], how many of row i's (ascending) cdf values are at or below it, in memory linear
   * in categories + samples (not their product): the row's cdf and draws sorted together, stably
   * with the cdf first, so a cdf value equal to a draw comes before it; the count of cdf values up
   * to each draw's place, scattered back to the draw's position.
   */
  private static Tensor countAtOrBelow(Tensor cdf, Tensor u, long categories, long samples) {
    long rows = cdf.shape()[0];
    Tensor order = Tensor.cat(java.util.List.of(cdf, u), 1).sort(1, false).indices();
    Tensor fromCdf = order.lt(categories);
    Tensor below = fromCdf.cumsum(1);  // cdf values at or before each place
    Tensor draws = fromCdf.logicalNot();
    Tensor at = order.maskedSelect(draws).reshape(rows, samples).sub(categories);  // each row holds exactly `samples` draws
    return Tensor.zeros(new long[] {rows, samples}, DType.INT64, u.device()).scatter(1, at, below.maskedSelect(draws).reshape(rows, samples));
  }

  private static long[] shapeOf(Tensor probs, long rows, long n) {
    return probs.dim() == 1 ? new long[] {n} : new long[] {rows, n};
  }
}
