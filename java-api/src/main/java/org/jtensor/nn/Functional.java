package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ops.Distances;

/**
 * torch.nn.functional: the layers' maths as functions of tensors, differentiable through the ops
 * they use. Every result is a new handle the caller owns; temporaries are closed. The activations,
 * convolutions, pooling and losses live in its superclasses ({@link ActivationFunctions},
 * {@link ConvolutionFunctions}, {@link PoolingFunctions}, {@link LossFunctions}), one file per family;
 * all are called as Functional's.
 */
public final class Functional extends LossFunctions {
  private Functional() {}

  /**
   * torch.nn.functional.scaled_dot_product_attention: softmax(q·kᵀ·scale + mask)·v over query
   * [..., L, E], key [..., S, E], value [..., S, Ev] (leading dims broadcast) into [..., L, Ev], as
   * one op with fused kernels on the CPU and CUDA (the [L, S] scores are never stored). attnMask: null, bool
   * (true takes part) or additive, broadcast to [..., L, S]; isCausal keeps key j for query i when
   * j ≤ i (with a mask, both apply); dropoutP drops probabilities (from the default generator); the
   * scale 1/√E. A row whose every key is masked gives 0, as PyTorch's.
   */
  public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value, Tensor attnMask, double dropoutP,
                                                 boolean isCausal) {
    return Attention.attention(query, key, value, attnMask, dropoutP, isCausal, null, false, Generator.defaultGenerator());
  }

  /** F.scaled_dot_product_attention(q, k, v): no mask, no dropout, not causal. */
  public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value) {
    return scaledDotProductAttention(query, key, value, null, 0.0, false);
  }

  /** The same with the scale given (PyTorch's keyword scale). */
  public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value, Tensor attnMask, double dropoutP,
                                                 boolean isCausal, double scale) {
    return Attention.attention(query, key, value, attnMask, dropoutP, isCausal, scale, false, Generator.defaultGenerator());
  }

  /**
   * Every argument: scale null for 1/√E; enableGqa reads dim −3 as the heads, key and value's
   * (fewer, dividing the query's) each serving its group of query heads (PyTorch's enable_gqa);
   * dropout draws from g.
   */
  public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value, Tensor attnMask, double dropoutP,
                                                 boolean isCausal, Double scale, boolean enableGqa, Generator g) {
    return Attention.attention(query, key, value, attnMask, dropoutP, isCausal, scale, enableGqa, g);
  }

  /** F.layer_norm(x, normalized_shape, weight, bias, eps): over x's last dims, which must be normalizedShape. */
  public static Tensor layerNorm(Tensor x, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
    return Normalization.layerNorm(x, normalizedShape, weight, bias, eps);
  }

  /** F.layer_norm(x, normalized_shape): no weight or bias, eps 1e-5. */
  public static Tensor layerNorm(Tensor x, long... normalizedShape) {
    return Normalization.layerNorm(x, normalizedShape, null, null, 1e-5);
  }

  /** (x − mean) / √(var + eps) over the last normalizedDims dims, then · weight + bias (either may be null). */
  public static Tensor layerNorm(Tensor x, int normalizedDims, Tensor weight, Tensor bias, double eps) {
    return Normalization.layerNorm(x, normalizedDims, weight, bias, eps);
  }

  /**
   * Batch normalization over every dim but 1 (the channels) of [N, C] or [N, C, ...]: in training,
   * the batch's statistics, and the running ones (if given) updated in place with momentum
   * (unbiased variance, as PyTorch); in eval, the running statistics.
   */
  public static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, boolean training, double momentum, double eps) {
    return Normalization.batchNorm(x, runningMean, runningVar, weight, bias, training, momentum, eps);
  }

  /**
   * torch.nn.functional.group_norm: input [N, C, *] normalised over each of numGroups groups of
   * C/numGroups channels (and every element of *), biased variance, then · weight + bias per channel
   * (either may be null).
   */
  public static Tensor groupNorm(Tensor input, long numGroups, Tensor weight, Tensor bias, double eps) {
    return Normalization.groupNorm(input, numGroups, weight, bias, eps);
  }

  /** torch.nn.functional.instance_norm(input) with its defaults: each (sample, channel) of [N, C, *] over its own elements, eps 1e-5. */
  public static Tensor instanceNorm(Tensor input) {
    return Normalization.instanceNorm(input, null, null, null, null, true, 0.1, 1e-5);
  }

  /**
   * torch.nn.functional.instance_norm: with useInputStats, each instance's own statistics (biased
   * variance), the running ones (if given) moved in place by momentum towards the batch's mean of
   * them; without, the running statistics. Then · weight + bias per channel (either may be null).
   */
  public static Tensor instanceNorm(Tensor input, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, boolean useInputStats,
                                    double momentum, double eps) {
    return Normalization.instanceNorm(input, runningMean, runningVar, weight, bias, useInputStats, momentum, eps);
  }

  /**
   * torch.nn.functional.rms_norm: x / √(mean(x²) + eps) over the last normalizedShape.length dims,
   * times weight (null: none); eps null is the machine epsilon of the math dtype (see {@link RMSNorm}).
   */
  public static Tensor rmsNorm(Tensor input, long[] normalizedShape, Tensor weight, Double eps) {
    return RMSNorm.rmsNorm("rmsNorm", input, normalizedShape, weight, eps);
  }

  /** torch.nn.functional.local_response_norm: x / (k + alpha · mean over size neighbouring channels of x²)^beta (see {@link LocalResponseNorm}). */
  public static Tensor localResponseNorm(Tensor input, long size, double alpha, double beta, double k) {
    return LocalResponseNorm.localResponseNorm(input, size, alpha, beta, k);
  }

  /** Rows of weight at the indices (torch.nn.functional.embedding): indices' shape + [dim]. */
  public static Tensor embedding(Tensor indices, Tensor weight) {
    if (weight.dim() != 2) throw new IllegalArgumentException("embedding(): 'weight' must be 2-D, got shape " + Arrays.toString(weight.shape()));
    if (indices.dtype() != DType.INT64 && indices.dtype() != DType.INT32) {
      throw new IllegalArgumentException("embedding(): Expected tensor for argument #1 'indices' to have one of the following scalar types: "
          + "Long, Int; but got " + indices.dtype() + " instead");
    }
    try (TensorScope s = TensorScope.open()) {
      if (indices.numel() > 0) {  // index_select's rule: no wrap-around, every index a row
        long lo = (long) indices.amin().item(), hi = (long) indices.amax().item(), rows = weight.shape()[0];
        if (lo < 0 || hi >= rows) {
          throw new IndexOutOfBoundsException("embedding(): index out of range in self: index " + (lo < 0 ? lo : hi) + " for " + rows + " rows");
        }
      }
      long[] shape = Arrays.copyOf(indices.shape(), indices.dim() + 1);
      shape[indices.dim()] = weight.shape()[1];
      return s.keep(weight.indexSelect(0, indices.reshape(-1)).reshape(shape));
    }
  }

  /**
   * embedding with PyTorch's padding_idx: lookups of paddingIdx (in [-rows, rows), a negative one
   * counting from the end) return its row but pass no gradient to it.
   */
  public static Tensor embedding(Tensor indices, Tensor weight, long paddingIdx) {
    if (weight.dim() != 2) throw new IllegalArgumentException("embedding(): 'weight' must be 2-D, got shape " + Arrays.toString(weight.shape()));
    long rows = weight.shape()[0];
    if (paddingIdx < -rows || paddingIdx >= rows) {
      throw new IllegalArgumentException("embedding(): Padding_idx must be within num_embeddings, got " + paddingIdx + " for " + rows);
    }
    if (paddingIdx < 0) paddingIdx += rows;
    try (TensorScope s = TensorScope.open()) {
      Tensor looked = embedding(indices, weight);
      if (!looked.requiresGrad()) return s.keep(looked);
      Tensor keep = indices.ne(paddingIdx).unsqueeze(-1);  // where the gradient flows
      return s.keep(Tensor.where(keep, looked, looked.detach()));
    }
  }

  /**
   * F.embedding_bag(input, weight, offsets, max_norm, norm_type, mode="sum"|"mean"|"max",
   * per_sample_weights, include_last_offset, padding_idx): [bags, dim] (see {@link EmbeddingBag});
   * offsets, maxNorm, perSampleWeights and paddingIdx null for none.
   */
  public static Tensor embeddingBag(Tensor input, Tensor weight, Tensor offsets, Double maxNorm, double normType, String mode,
                                    Tensor perSampleWeights, boolean includeLastOffset, Long paddingIdx) {
    return EmbeddingBags.embeddingBag(input, weight, offsets, maxNorm, normType, mode, perSampleWeights, includeLastOffset, paddingIdx);
  }

  /** F.pixel_shuffle: [*, C·r², H, W] to [*, C, H·r, W·r] (see {@link PixelShuffle}). */
  public static Tensor pixelShuffle(Tensor input, long upscaleFactor) {
    return PixelShuffle.shuffle(input, upscaleFactor, true);
  }

  /** F.pixel_unshuffle: [*, C, H·r, W·r] to [*, C·r², H, W]. */
  public static Tensor pixelUnshuffle(Tensor input, long downscaleFactor) {
    return PixelShuffle.shuffle(input, downscaleFactor, false);
  }

  /** torch.nn.functional.softmin: softmax(−x) along dim. */
  public static Tensor softmin(Tensor x, int dim) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(x.neg().softmax(dim));
    }
  }

  /**
   * torch.nn.functional.bilinear: y[..., o] = Σ_ij x1[..., i]·weight[o, i, j]·x2[..., j] + bias[o]
   * for x1 [..., I] and x2 [..., J] with the same leading dims, weight [O, I, J], bias [O] or null.
   */
  public static Tensor bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor bias) {
    return Bilinear.bilinear(input1, input2, weight, bias);
  }

  /**
   * torch.nn.functional.rrelu: while training, each x ≤ 0 times its own slope from U(lower, upper)
   * drawn from g; otherwise leaky ReLU with slope (lower + upper) / 2. PyTorch's defaults: 1/8, 1/3.
   */
  public static Tensor rrelu(Tensor x, double lower, double upper, boolean training, Generator g) {
    return RandomActivations.rrelu(x, lower, upper, training, g);
  }

  /**
   * torch.nn.functional.gumbel_softmax: a sample softmax((logits + G) / tau) along dim with Gumbel
   * noise G drawn from g; hard returns its one-hot argmax with the soft sample's gradient.
   */
  public static Tensor gumbelSoftmax(Tensor logits, double tau, boolean hard, int dim, Generator g) {
    return RandomActivations.gumbelSoftmax(logits, tau, hard, dim, g);
  }

  public static Tensor dropout(Tensor x, double p, boolean training, Generator g) {
    return x.dropout(p, training, g);
  }

  /** torch.nn.functional.dropout1d: whole channels of [N, C, L] (or [C, L]) zeroed with probability p, the rest scaled by 1/(1 − p). */
  public static Tensor dropout1d(Tensor x, double p, boolean training, Generator g) {
    return Dropouts.dropout1d(x, p, training, g);
  }

  /** torch.nn.functional.dropout2d: whole channels of [N, C, H, W]; a 3-D input is [N, C, L], as PyTorch reads it. */
  public static Tensor dropout2d(Tensor x, double p, boolean training, Generator g) {
    return Dropouts.dropout2d(x, p, training, g);
  }

  /** torch.nn.functional.dropout3d: whole channels of [N, C, D, H, W] (or [C, D, H, W]). */
  public static Tensor dropout3d(Tensor x, double p, boolean training, Generator g) {
    return Dropouts.dropout3d(x, p, training, g);
  }

  /**
   * torch.nn.functional.alpha_dropout (for SELU networks): each element dropped with probability p
   * to SELU's saturation value, then an affine map that keeps a zero mean and unit variance.
   */
  public static Tensor alphaDropout(Tensor x, double p, boolean training, Generator g) {
    return Dropouts.drop("alphaDropout", x, p, training, false, true, g);
  }

  /** torch.nn.functional.feature_alpha_dropout: alpha dropout of whole channels (dim 1 of [N, C, *]). */
  public static Tensor featureAlphaDropout(Tensor x, double p, boolean training, Generator g) {
    return Dropouts.drop("featureAlphaDropout", x, p, training, true, true, g);
  }

  /** Class indices as one-hot rows: int64 [..., numClasses]; numClasses -1 takes max + 1. */
  public static Tensor oneHot(Tensor target, long numClasses) {
    if (target.dtype() != DType.INT64) {
      throw new IllegalArgumentException("oneHot(): one_hot is only applicable to index tensor of type int64, got " + target.dtype());
    }
    try (TensorScope s = TensorScope.open()) {
      long classes = numClasses;
      if (classes == -1) classes = target.numel() == 0 ? 0 : (long) target.amax().item() + 1;
      if (target.numel() > 0 && target.amin().item() < 0) throw new IllegalArgumentException("oneHot(): Class values must be non-negative.");
      if (target.numel() > 0 && target.amax().item() >= classes) {
        throw new IllegalArgumentException("oneHot(): Class values must be smaller than num_classes.");
      }
      long[] shape = Arrays.copyOf(target.shape(), target.dim() + 1);
      shape[target.dim()] = classes;
      Tensor idx = target.unsqueeze(target.dim());
      Tensor out = Tensor.zeros(shape, DType.INT64).scatter(target.dim(), idx, Tensor.onesLike(idx));
      return s.keep(out);
    }
  }

  /**
   * torch.nn.functional.cosine_similarity along dim: each input normalized (its 2-norm clamped below
   * at eps, as PyTorch 2 computes it), then the products summed.
   */
  public static Tensor cosineSimilarity(Tensor x1, Tensor x2, int dim, double eps) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(normalize(x1, 2.0, dim, eps).mul(normalize(x2, 2.0, dim, eps)).sum(dim));
    }
  }

  /** torch.nn.functional.pairwise_distance: the p-norm of x1 − x2 + eps over the last dim (x1 and x2 broadcast). */
  public static Tensor pairwiseDistance(Tensor x1, Tensor x2, double p, double eps, boolean keepdim) {
    return Distances.pairwiseDistance(x1, x2, p, eps, keepdim);
  }

  public static Tensor pairwiseDistance(Tensor x1, Tensor x2) {
    return pairwiseDistance(x1, x2, 2, 1e-6, false);
  }

  /** torch.nn.functional.pdist: the p-norm distances between the rows of a 2-D input, the pairs i < j in order. */
  public static Tensor pdist(Tensor input, double p) {
    return Distances.pdist(input, p);
  }

  public static Tensor pdist(Tensor input) {
    return pdist(input, 2);
  }

  /**
   * torch.nn.functional.pad(x, pad, mode, value): pad holds (before, after) pairs from the last dim
   * backwards; mode "constant" (value; a negative pad crops), "reflect", "replicate" or "circular".
   */
  public static Tensor pad(Tensor x, long[] pad, String mode, double value) {
    return Padding.pad(x, pad, mode, value);
  }

  public static Tensor pad(Tensor x, long... pad) {
    return Padding.pad(x, pad, "constant", 0.0);
  }

  /** torch.nn.functional.interpolate to size (one value or one per spatial dim): "nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area". */
  public static Tensor interpolate(Tensor x, long[] size, String mode, boolean alignCorners) {
    return Interpolation.interpolate(x, size, null, mode, alignCorners);
  }

  /** interpolate by scaleFactor (one value or one per spatial dim; the output floor(in · factor)). */
  public static Tensor interpolate(Tensor x, double[] scaleFactor, String mode, boolean alignCorners) {
    return Interpolation.interpolate(x, null, scaleFactor, mode, alignCorners);
  }

  /** torch.nn.functional.affine_grid: theta N×2×3 (size N, C, H, W) or N×3×4 (size N, C, D, H, W) to a sampling grid. */
  public static Tensor affineGrid(Tensor theta, long[] size, boolean alignCorners) {
    return GridSampling.affineGrid(theta, size, alignCorners);
  }

  /** torch.nn.functional.grid_sample, 4-D or 5-D: mode "bilinear", "nearest", "bicubic" (4-D); paddingMode "zeros", "border", "reflection". */
  public static Tensor gridSample(Tensor input, Tensor grid, String mode, String paddingMode, boolean alignCorners) {
    return GridSampling.gridSample(input, grid, mode, paddingMode, alignCorners);
  }

  /** torch.nn.functional.normalize: x over its p-norm along dim, the norm clamped below at eps. */
  public static Tensor normalize(Tensor x, double p, int dim, double eps) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(x.div(x.norm(p, new int[] {dim}, true).clampMin(eps)));
    }
  }
}
