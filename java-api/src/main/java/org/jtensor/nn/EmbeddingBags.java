package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * torch.nn.functional.embedding_bag as a composition: a 2-D input is rows of fixed-length bags, a
 * 1-D one is cut into bags at offsets; each element's row of weight (times its per-sample weight)
 * goes to its bag by indexAdd_ (serial, in input order, as PyTorch's loop adds). mean divides by
 * the bag's elements that are not padding; max keeps, per column, the first element holding the
 * bag's maximum, so the gradient reaches that row alone, as PyTorch's. An empty bag (or one of
 * padding only) gives zeros.
 */
final class EmbeddingBags {
  private EmbeddingBags() {}

  static final String OP = "embeddingBag";

  static Tensor embeddingBag(Tensor input, Tensor weight, Tensor offsets, Double maxNorm, double normType, String mode,
                             Tensor perSampleWeights, boolean includeLastOffset, Long paddingIdx) {
    if (input == null || weight == null) throw new IllegalArgumentException(OP + "(): input and weight must not be null");
    if (!"sum".equals(mode) && !"mean".equals(mode) && !"max".equals(mode)) {
      throw new IllegalArgumentException(OP + "(): mode has to be one of sum, mean or max, got " + mode);
    }
    if (weight.dim() != 2) throw new IllegalArgumentException(OP + "(): 'weight' must be 2-D, got shape " + Arrays.toString(weight.shape()));
    if (!weight.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(OP + "(): Expected tensor for argument #1 'weight' to have one of the following scalar types: "
          + "Half, BFloat16, Float, Double; but got " + weight.dtype() + " instead");
    }
    requireIndexType(input, "input");
    long rows = weight.shape()[0];
    Long pad = paddingIdx;
    if (pad != null) {
      if (pad < -rows || pad >= rows) {
        throw new IllegalArgumentException(OP + "(): padding_idx must be within the number of embeddings, " + -rows + " through "
            + (rows - 1) + ", but got " + pad);
      }
      if (pad < 0) pad += rows;
    }
    if (perSampleWeights != null) {
      if (!"sum".equals(mode)) {
        throw new UnsupportedOperationException(OP + "(): per_sample_weights was not None. per_sample_weights is only supported for "
            + "mode='sum' (got mode='" + mode + "')");
      }
      if (!Arrays.equals(perSampleWeights.shape(), input.shape())) {
        throw new IllegalArgumentException(OP + "(): If per_sample_weights (" + Arrays.toString(perSampleWeights.shape())
            + ") is not None, then it must have the same shape as the input (" + Arrays.toString(input.shape()) + ")");
      }
      if (perSampleWeights.dtype() != weight.dtype()) {
        throw new IllegalArgumentException(OP + "(): Expected per_sample_weights to have weight's dtype " + weight.dtype() + ", got "
            + perSampleWeights.dtype());
      }
    }
    try (TensorScope s = TensorScope.open()) {
      long n = input.numel();
      long[] starts = starts(input, offsets, includeLastOffset);
      Tensor flat = input.reshape(-1).to(DType.INT64);
      if (n > 0) {
        long lo = (long) flat.amin().item(), hi = (long) flat.amax().item();
        if (lo < 0 || hi >= rows) {
          throw new IndexOutOfBoundsException(OP + "(): Expected idx >= 0 && idx < num_embeddings but found idx to be " + (lo < 0 ? lo : hi));
        }
      }
      if (maxNorm != null) renorm(weight, flat, maxNorm, normType);
      int bags = starts.length;
      long dim = weight.shape()[1];
      if (bags == 0) return s.keep(Tensor.zeros(new long[] {0, dim}, weight.dtype(), weight.device()));
      Tensor bagOf = bagOf(starts, n).to(weight.device());
      Tensor looked = weight.indexSelect(0, flat);
      Tensor keep = pad == null ? Tensor.onesLike(flat).gt(0L) : flat.ne(pad.longValue());
      Tensor keepRows = keep.unsqueeze(1);
      Tensor contrib;
      if ("max".equals(mode)) {
        contrib = Tensor.where(firstMaxima(looked.detach(), keepRows, bagOf, starts, bags), looked, 0.0);
      } else {
        if (perSampleWeights != null) looked = looked.mul(perSampleWeights.reshape(-1, 1));
        contrib = Tensor.where(keepRows, looked, 0.0);
      }
      Tensor out = Tensor.zeros(new long[] {bags, dim}, weight.dtype(), weight.device()).indexAdd_(0, bagOf, contrib);
      if ("mean".equals(mode)) {
        Tensor count = Tensor.zeros(new long[] {bags}, weight.dtype(), weight.device()).indexAdd_(0, bagOf, keep.to(weight.dtype()));
        out = out.div(count.clampMin(1.0).unsqueeze(1));
      }
      return s.keep(out);
    }
  }

  private static void requireIndexType(Tensor t, String what) {
    if (t.dtype() != DType.INT64 && t.dtype() != DType.INT32) {
      throw new IllegalArgumentException(OP + "(): Expected tensor for argument '" + what + "' to have one of the following scalar types: "
          + "Long, Int; but got " + t.dtype() + " instead");
    }
  }

  /** Each bag's first position in the flattened input, checked as PyTorch checks offsets (and non-decreasing). */
  private static long[] starts(Tensor input, Tensor offsets, boolean includeLastOffset) {
    if (input.dim() == 2) {
      if (offsets != null) {
        throw new IllegalArgumentException(OP + "(): if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
            + "fixed length sequences");
      }
      long b = input.shape()[0], len = input.shape()[1];
      long[] st = new long[Math.toIntExact(b)];
      for (int i = 0; i < st.length; i++) st[i] = i * len;
      return st;
    }
    if (input.dim() != 1) {
      throw new IllegalArgumentException(OP + "(): input has to be 1D or 2D Tensor, but got Tensor of dimension " + input.dim());
    }
    if (offsets == null || offsets.dim() != 1) {
      throw new IllegalArgumentException(OP + "(): offsets has to be a 1D Tensor" + (offsets == null ? " but got None" : ""));
    }
    requireIndexType(offsets, "offsets");
    long[] off = offsets.to(DType.INT64).toLongArray();
    long n = input.numel();
    if (off.length == 0) {
      if (includeLastOffset) throw new IllegalArgumentException(OP + "(): include_last_offset needs at least one offset (the input's length)");
      return off;  // no bags
    }
    if (off[0] != 0) {
      throw new IllegalArgumentException(OP + "(): offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
          + "position 0. However, got " + off[0]);
    }
    for (int i = 1; i < off.length; i++) {
      if (off[i] < off[i - 1]) {
        throw new IllegalArgumentException(OP + "(): offsets must be non-decreasing, got offsets[" + i + "] = " + off[i] + " after "
            + off[i - 1]);
      }
    }
    if (off[off.length - 1] > n) {
      throw new IllegalArgumentException(OP + "(): offsets[-1] can not be greater than input's length " + n + " but got offsets[-1] of "
          + off[off.length - 1]);
    }
    if (!includeLastOffset) return off;
    if (off[off.length - 1] != n) {  // PyTorch reads the last bag to the input's end whatever the last offset says
      throw new IllegalArgumentException(OP + "(): with include_last_offset, offsets[-1] must be the input's length " + n + ", got "
          + off[off.length - 1]);
    }
    return Arrays.copyOf(off, off.length - 1);
  }

  /** The bag of every element of the flattened input (bag b holds [starts[b], starts[b + 1])). */
  private static Tensor bagOf(long[] starts, long n) {
    long[] counts = new long[starts.length];
    for (int b = 0; b < starts.length; b++) counts[b] = (b + 1 < starts.length ? starts[b + 1] : n) - starts[b];
    if (starts.length == 0) return Tensor.zeros(new long[] {0}, DType.INT64);
    return Tensor.arange(0, starts.length, 1, DType.INT64).repeatInterleave(Tensor.fromArray(counts), 0);
  }

  /**
   * Where each element is, per column, the first of its bag (padding skipped) to hold the bag's
   * maximum: equal to the maximum, with none equal before it in the bag (an exclusive running count).
   */
  private static Tensor firstMaxima(Tensor looked, Tensor keepRows, Tensor bagOf, long[] starts, int bags) {
    Tensor candidates = Tensor.where(keepRows, looked, Double.NEGATIVE_INFINITY);
    Tensor index = bagOf.unsqueeze(1).expand(looked.shape());
    Tensor max = Tensor.zeros(new long[] {bags, looked.shape()[1]}, looked.dtype(), looked.device())
        .scatterReduce(0, index, candidates, "amax", false);
    Tensor hit = looked.eq(max.indexSelect(0, bagOf)).logicalAnd(keepRows);
    Tensor hits = hit.to(DType.INT64);
    Tensor before = hits.cumsum(0).sub(hits);  // hits before each element, over the whole input
    Tensor atStart = before.indexSelect(0, Tensor.fromArray(starts).to(looked.device()).indexSelect(0, bagOf));
    return hit.logicalAnd(before.eq(atStart));
  }

  /** PyTorch's embedding_renorm_: the rows input uses whose normType-norm passes maxNorm scale to maxNorm / (norm + 1e-7), in place. */
  private static void renorm(Tensor weight, Tensor flat, double maxNorm, double normType) {
    try (TensorScope s = TensorScope.open(); GradMode.Scope off = GradMode.noGrad()) {
      if (flat.numel() == 0) return;
      Tensor used = flat.unique();
      Tensor rows = weight.indexSelect(0, used);
      Tensor norms = rows.norm(normType, new int[] {1}, true);
      Tensor scale = Tensor.where(norms.gt(maxNorm), norms.add(1e-7).reciprocal().mul(maxNorm), 1.0);
      weight.indexCopy_(0, used, rows.mul(scale));
    }
  }
}
