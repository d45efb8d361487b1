package org.jtensor.nn;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.ops.Distances;
import org.jtensor.ValuesAndIndices;

/**
 * torch.nn.functional: the layers' maths as functions of tensors, differentiable through the ops
 * they use. Every result is a new handle the caller owns; temporaries are closed.
 */
public final class Functional {
  private Functional() {}

  public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
    return Tensor.linear(input, weight, bias);
  }

  /** 2-D convolution, one stride and padding for both dims, dilation 1, groups 1: conv2d's shorthand. */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, int stride, int padding) {
    return conv2d(input, weight, bias, new long[] {stride}, new long[] {padding}, new long[] {1}, 1);
  }

  /**
   * torch.nn.functional.conv1d: input [N, C, L] (or [C, L]), weight [O, C/groups, k], bias [O] or
   * null; stride, padding and dilation one number for every dim or one per dim.
   */
  public static Tensor conv1d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(1, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /** torch.nn.functional.conv2d: input [N, C, H, W] (or [C, H, W]), weight [O, C/groups, kH, kW]. */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(2, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /** torch.nn.functional.conv3d: input [N, C, D, H, W] (or [C, D, H, W]), weight [O, C/groups, kD, kH, kW]. */
  public static Tensor conv3d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
    return Convolution.conv(3, input, weight, bias, stride, padding, padding, dilation, groups);
  }

  /**
   * torch.nn.functional.conv_transpose1d (torch's argument order): input [N, Cin, L] (or [Cin, L]),
   * weight [Cin, Cout/groups, k]; outputPadding adds to one side of the output, below stride or dilation.
   */
  public static Tensor convTranspose1d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(1, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** torch.nn.functional.conv_transpose2d: input [N, Cin, H, W] (or unbatched), weight [Cin, Cout/groups, kH, kW]. */
  public static Tensor convTranspose2d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(2, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** torch.nn.functional.conv_transpose3d: input [N, Cin, D, H, W] (or unbatched), weight [Cin, Cout/groups, kD, kH, kW]. */
  public static Tensor convTranspose3d(Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] outputPadding,
                                       long groups, long[] dilation) {
    return Convolution.convTranspose(3, input, weight, bias, stride, padding, outputPadding, groups, dilation);
  }

  /** conv1d with padding "same" (the output as long as the input; stride 1) or "valid" (none). */
  public static Tensor conv1d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(1, input, weight, bias, stride, padding, dilation, groups);
  }

  /** conv2d with padding "same" or "valid". */
  public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(2, input, weight, bias, stride, padding, dilation, groups);
  }

  /** conv3d with padding "same" or "valid". */
  public static Tensor conv3d(Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
    return namedPadding(3, input, weight, bias, stride, padding, dilation, groups);
  }

  private static Tensor namedPadding(int nsp, Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation,
                                     long groups) {
    long[][] p = Convolution.namedPadding("conv" + nsp + "d", padding, weight.shape(), stride, dilation, nsp);
    return Convolution.conv(nsp, input, weight, bias, stride, p[0], p[1], dilation, groups);
  }

  /**
   * torch.nn.functional.unfold (im2col): input [N, C, H, W] to [N, C·kH·kW, L], each column one
   * window (L windows); kernelSize, dilation, padding, stride one number or two.
   */
  public static Tensor unfold(Tensor input, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
    return Folding.unfold(input, kernelSize, dilation, padding, stride);
  }

  /** torch.nn.functional.fold (col2im): [N, C·kH·kW, L] back to [N, C, outputSize], overlapping entries summed. */
  public static Tensor fold(Tensor input, long[] outputSize, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
    return Folding.fold(input, outputSize, kernelSize, dilation, padding, stride);
  }

  /** Max over kernel×kernel windows with stride kernel (torch.nn.functional.max_pool2d). */
  public static Tensor maxPool2d(Tensor input, int kernel) {
    return maxPool2d(input, kernel, kernel);
  }

  public static Tensor maxPool2d(Tensor input, int kernel, int stride) {
    return maxPool2d(input, new long[] {kernel}, new long[] {stride}, new long[] {0}, new long[] {1}, false);
  }

  /** torch.nn.functional.max_pool1d: input [N, C, L] or [C, L]; stride null: the kernel size. */
  public static Tensor maxPool1d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(1, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** torch.nn.functional.max_pool2d: input [N, C, H, W] or [C, H, W]; stride null: the kernel size. */
  public static Tensor maxPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(2, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** torch.nn.functional.max_pool3d: input [N, C, D, H, W] or [C, D, H, W]; stride null: the kernel size. */
  public static Tensor maxPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
    return valuesOnly(Pooling.maxPool(3, input, kernelSize, stride, padding, dilation, ceilMode));
  }

  /** max_pool1d(..., return_indices=True): the maxima and each one's position in its input line. */
  public static ValuesAndIndices maxPool1dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(1, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** max_pool3d(..., return_indices=True): the maxima and each one's position in its input volume (D·H·W row-major). */
  public static ValuesAndIndices maxPool3dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(3, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** max_pool2d(..., return_indices=True): the maxima and each one's position in its input plane (H·W row-major). */
  public static ValuesAndIndices maxPool2dWithIndices(Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation,
                                                      boolean ceilMode) {
    return Pooling.maxPool(2, input, kernelSize, stride, padding, dilation, ceilMode);
  }

  /** torch.nn.functional.max_unpool1d: maxPool1dWithIndices's values back at their indices in zeros; outputSize null: PyTorch's default size. */
  public static Tensor maxUnpool1d(Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
    return MaxUnpooling.maxUnpool(1, input, indices, kernelSize, stride, padding, outputSize);
  }

  /** torch.nn.functional.max_unpool2d: maxPool2dWithIndices's values back at their (H·W row-major) indices in zeros. */
  public static Tensor maxUnpool2d(Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
    return MaxUnpooling.maxUnpool(2, input, indices, kernelSize, stride, padding, outputSize);
  }

  private static Tensor valuesOnly(ValuesAndIndices r) {
    r.indices().close();
    return r.values();
  }

  /** Mean over kernel×kernel windows with stride kernel (torch.nn.functional.avg_pool2d, no padding): avgPool2d's shorthand. */
  public static Tensor avgPool2d(Tensor input, int kernel) {
    return avgPool2d(input, new long[] {kernel}, null, new long[] {0}, false, true);
  }

  /** torch.nn.functional.avg_pool1d: input [N, C, L] or [C, L]; stride null: the kernel size. */
  public static Tensor avgPool1d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(1, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  /** torch.nn.functional.avg_pool2d: input [N, C, H, W] or [C, H, W]; countIncludePad: padding zeros count in each mean. */
  public static Tensor avgPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(2, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  /** avg_pool2d with divisor_override: each window's sum divided by divisorOverride (not 0) instead of its count. */
  public static Tensor avgPool2d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad,
                                 long divisorOverride) {
    return Pooling.avgPool(2, input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
  }

  /** torch.nn.functional.avg_pool3d: input [N, C, D, H, W] or [C, D, H, W]. */
  public static Tensor avgPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad) {
    return Pooling.avgPool(3, input, kernelSize, stride, padding, ceilMode, countIncludePad, null);
  }

  public static Tensor avgPool3d(Tensor input, long[] kernelSize, long[] stride, long[] padding, boolean ceilMode, boolean countIncludePad,
                                 long divisorOverride) {
    return Pooling.avgPool(3, input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
  }

  /** torch.nn.functional.lp_pool1d: (Σ_window x^p)^(1/p) over [N, C, L] (or [C, L]), no padding; stride null: the kernel. */
  public static Tensor lpPool1d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    return LpPooling.lpPool(1, input, normType, kernelSize, stride, ceilMode);
  }

  /** torch.nn.functional.lp_pool2d: (Σ_window x^p)^(1/p) over [N, C, H, W] (or [C, H, W]); kernel and stride one number or two. */
  public static Tensor lpPool2d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
    return LpPooling.lpPool(2, input, normType, kernelSize, stride, ceilMode);
  }

  /** torch.nn.functional.adaptive_avg_pool1d: [N, C, L] (or [C, L]) to outputSize positions, PyTorch's windows. */
  public static Tensor adaptiveAvgPool1d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(1, input, outputSize);
  }

  /** torch.nn.functional.adaptive_avg_pool2d: [N, C, H, W] (or [C, H, W]) to outputSize (one number or two). */
  public static Tensor adaptiveAvgPool2d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(2, input, outputSize);
  }

  public static Tensor adaptiveAvgPool3d(Tensor input, long[] outputSize) {
    return Pooling.adaptiveAvgPool(3, input, outputSize);
  }

  /** torch.nn.functional.adaptive_max_pool1d/2d/3d: [N, C, *spatial] (or [C, *spatial]) to outputSize; WithIndices adds each maximum's row-major spatial position. */
  public static Tensor adaptiveMaxPool1d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(1, input, outputSize));
  }

  public static Tensor adaptiveMaxPool2d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(2, input, outputSize));
  }

  public static Tensor adaptiveMaxPool3d(Tensor input, long[] outputSize) {
    return valuesOnly(AdaptiveMaxPooling.pool(3, input, outputSize));
  }

  public static ValuesAndIndices adaptiveMaxPool1dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(1, input, outputSize);
  }

  public static ValuesAndIndices adaptiveMaxPool2dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(2, input, outputSize);
  }

  public static ValuesAndIndices adaptiveMaxPool3dWithIndices(Tensor input, long[] outputSize) {
    return AdaptiveMaxPooling.pool(3, input, outputSize);
  }

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

  public static Tensor relu(Tensor x) {
    return x.relu();
  }

  public static Tensor gelu(Tensor x) {
    return x.gelu();
  }

  public static Tensor silu(Tensor x) {
    return x.silu();
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

  /** Mean negative log-likelihood of the target classes (torch.nn.functional.nll_loss). */
  public static Tensor nllLoss(Tensor logProbs, Tensor target) {
    return Losses.nllLoss(logProbs, target);
  }

  /**
   * logProbs [N, C] (or [N, C, d...], or [C] with a 0-dim target), target int64 [N] (or [N, d...];
   * uint8 where logProbs has at most 2 dims, as PyTorch's); entries equal to
   * ignoreIndex count for nothing, and the mean divides by the entries that count.
   */
  public static Tensor nllLoss(Tensor logProbs, Tensor target, long ignoreIndex, Reduction reduction) {
    return Losses.nllLoss(logProbs, target, ignoreIndex, reduction);
  }

  /** Cross entropy of logits against class indices, or class probabilities shaped as the logits (mean over the batch). */
  public static Tensor crossEntropy(Tensor logits, Tensor target) {
    return Losses.crossEntropy(logits, target);
  }

  /**
   * torch.nn.functional.cross_entropy with class indices (a floating-point target: class
   * probabilities, as the overload with a weight): log_softmax over dim 1, then the
   * negative log-likelihood; labelSmoothing ε mixes in the uniform distribution:
   * (1 − ε)·nll + ε·mean over classes of −log p.
   */
  public static Tensor crossEntropy(Tensor logits, Tensor target, long ignoreIndex, double labelSmoothing, Reduction reduction) {
    return Losses.crossEntropy(logits, target, ignoreIndex, labelSmoothing, reduction);
  }

  /** crossEntropy with class weights (null: none); a floating-point target holds class probabilities shaped as the logits. */
  public static Tensor crossEntropy(Tensor logits, Tensor target, Tensor weight, long ignoreIndex, double labelSmoothing,
                                    Reduction reduction) {
    return Losses.crossEntropy(logits, target, weight, ignoreIndex, labelSmoothing, reduction);
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

  /** torch.nn.functional.normalize: x over its p-norm along dim, the norm clamped below at eps. */
  public static Tensor normalize(Tensor x, double p, int dim, double eps) {
    try (TensorScope s = TensorScope.open()) {
      return s.keep(x.div(x.norm(p, new int[] {dim}, true).clampMin(eps)));
    }
  }

  /** Mean absolute error (torch.nn.functional.l1_loss). */
  public static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
    return Losses.l1Loss(input, target, reduction);
  }

  /** torch.nn.functional.smooth_l1_loss: quadratic below beta, linear above. */
  public static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
    return Losses.smoothL1Loss(input, target, reduction, beta);
  }

  /** torch.nn.functional.huber_loss: quadratic up to delta, linear (slope delta) above. */
  public static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
    return Losses.huberLoss(input, target, reduction, delta);
  }

  /**
   * torch.nn.functional.kl_div(input, target, reduction, log_target) with input log-probabilities;
   * batchMean is reduction="batchmean" (the sum over the batch size, the mathematically right mean).
   */
  public static Tensor klDiv(Tensor input, Tensor target, Reduction reduction, boolean batchMean, boolean logTarget) {
    return Losses.klDiv(input, target, reduction, batchMean, logTarget);
  }

  /** torch.nn.functional.margin_ranking_loss: max(0, −y·(x1 − x2) + margin), y ±1; the three of one rank, broadcast. */
  public static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.marginRankingLoss(input1, input2, target, margin, reduction);
  }

  /** torch.nn.functional.hinge_embedding_loss: x where y is 1, max(0, margin − x) where y is −1. */
  public static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.hingeEmbeddingLoss(input, target, margin, reduction);
  }

  /** torch.nn.functional.soft_margin_loss: log(1 + e^(−y·x)). */
  public static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    return MarginLosses.softMarginLoss(input, target, reduction);
  }

  /** torch.nn.functional.multilabel_soft_margin_loss: the binary logistic loss of each class (times weight, or null), averaged over classes. */
  public static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
    return MarginLosses.multilabelSoftMarginLoss(input, target, weight, reduction);
  }

  /** torch.nn.functional.cosine_embedding_loss: 1 − cos(x1, x2) where y is 1, max(0, cos − margin) where y is −1; [N, D] with [N], or [D] with a 0-dim y. */
  public static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
    return MarginLosses.cosineEmbeddingLoss(input1, input2, target, margin, reduction);
  }

  /** torch.nn.functional.pairwise_distance: ‖x1 − x2 + eps‖_p over the last dim. */
  public static Tensor pairwiseDistance(Tensor x1, Tensor x2, double p, double eps, boolean keepdim) {
    return MarginLosses.pairwiseDistance(x1, x2, p, eps, keepdim);
  }

  /**
   * torch.nn.functional.triplet_margin_loss: max(0, margin + d(a, p) − d(a, n)) with d the
   * pairwise p-distance (eps added to each difference); swap uses min(d(a, n), d(p, n)).
   */
  public static Tensor tripletMarginLoss(Tensor anchor, Tensor positive, Tensor negative, double margin, double p, double eps, boolean swap,
                                         Reduction reduction) {
    return MarginLosses.tripletMarginLoss(anchor, positive, negative, margin, p, eps, swap, reduction);
  }

  /** torch.nn.functional.poisson_nll_loss: e^x − y·x (logInput) or x − y·log(x + eps); full adds Stirling's term where y > 1. */
  public static Tensor poissonNllLoss(Tensor input, Tensor target, boolean logInput, boolean full, double eps, Reduction reduction) {
    return LikelihoodLosses.poissonNllLoss(input, target, logInput, full, eps, reduction);
  }

  /** torch.nn.functional.gaussian_nll_loss: ½·(log var + (x − y)²/var) (+ ½·log 2π when full), var clamped below at eps. */
  public static Tensor gaussianNllLoss(Tensor input, Tensor target, Tensor var, boolean full, double eps, Reduction reduction) {
    return LikelihoodLosses.gaussianNllLoss(input, target, var, full, eps, reduction);
  }

  /**
   * torch.nn.functional.multi_margin_loss: Σ_{j ≠ y} max(0, margin − x[y] + x[j])^p · weight[y] / C
   * for input [N, C] (or [C]) and int64 class indices target [N]; p 1 or 2, weight null or [C].
   */
  public static Tensor multiMarginLoss(Tensor input, Tensor target, int p, double margin, Tensor weight, Reduction reduction) {
    return ClassMarginLosses.multiMarginLoss(input, target, p, margin, weight, reduction);
  }

  /**
   * torch.nn.functional.multilabel_margin_loss: target int64 shaped as input [N, C] (or [C]), each
   * row its classes up to the first −1; Σ over those j and the other classes k of max(0, 1 − (x[j] − x[k])) / C.
   */
  public static Tensor multilabelMarginLoss(Tensor input, Tensor target, Reduction reduction) {
    return ClassMarginLosses.multilabelMarginLoss(input, target, reduction);
  }

  /** Mean squared error. */
  public static Tensor mseLoss(Tensor input, Tensor target) {
    return Losses.mseLoss(input, target);
  }

  public static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
    return Losses.mseLoss(input, target, reduction);
  }

  /** −(y·log p + (1 − y)·log(1 − p)), each log clamped at −100 as PyTorch does. */
  public static Tensor binaryCrossEntropy(Tensor probs, Tensor target, Reduction reduction) {
    return Losses.binaryCrossEntropy(probs, target, reduction);
  }

  /** binaryCrossEntropy(sigmoid(x), y) computed stably as PyTorch's: (1 − y)·x + max(−x, 0) + log(1 + e^−|x|); gradient σ(x) − y. */
  public static Tensor binaryCrossEntropyWithLogits(Tensor logits, Tensor target, Reduction reduction) {
    return Losses.binaryCrossEntropyWithLogits(logits, target, reduction);
  }
}
