package org.jtensor.nn;

import org.jtensor.Generator;
import org.jtensor.Tensor;

/**
 * torch.nn.EmbeddingBag: sums, means or maxima of bags of embedding rows without making the
 * per-element embeddings' tensor visible (see {@link Functional#embeddingBag}). The weight starts
 * N(0, 1) with the padding row zeroed, as PyTorch's; its state dict is PyTorch's ("weight").
 */
public final class EmbeddingBag extends Module {
  private final Tensor weight;
  private final Double maxNorm;
  private final double normType;
  private final String mode;
  private final boolean includeLastOffset;
  private final Long paddingIdx;  // in [0, numEmbeddings), or null

  /** PyTorch's EmbeddingBag(num_embeddings, embedding_dim): mode "mean", from the default generator. */
  public EmbeddingBag(long numEmbeddings, long embeddingDim) {
    this(numEmbeddings, embeddingDim, null, 2.0, "mean", false, null, Generator.defaultGenerator());
  }

  /** EmbeddingBag(num_embeddings, embedding_dim, mode=...). */
  public EmbeddingBag(long numEmbeddings, long embeddingDim, String mode) {
    this(numEmbeddings, embeddingDim, null, 2.0, mode, false, null, Generator.defaultGenerator());
  }

  /** All of PyTorch's options: maxNorm and paddingIdx null for none (scale_grad_by_freq and sparse are not supported). */
  public EmbeddingBag(long numEmbeddings, long embeddingDim, Double maxNorm, double normType, String mode, boolean includeLastOffset,
                      Long paddingIdx, Generator g) {
    if (numEmbeddings < 0 || embeddingDim < 0) {
      throw new IllegalArgumentException("EmbeddingBag(): num_embeddings and embedding_dim must be >= 0, got " + numEmbeddings + " and "
          + embeddingDim);
    }
    if (!"sum".equals(mode) && !"mean".equals(mode) && !"max".equals(mode)) {
      throw new IllegalArgumentException("EmbeddingBag(): mode has to be one of sum, mean or max, got " + mode);
    }
    this.maxNorm = maxNorm;
    this.normType = normType;
    this.mode = mode;
    this.includeLastOffset = includeLastOffset;
    this.paddingIdx = Embedding.paddingIndex("EmbeddingBag", paddingIdx, numEmbeddings);
    weight = registerParameter("weight", Embedding.initialWeight(numEmbeddings, embeddingDim, this.paddingIdx, g));
  }

  public Tensor weight() {
    return weight;
  }

  public String mode() {
    return mode;
  }

  /** The padding index in [0, numEmbeddings), or null. */
  public Long paddingIdx() {
    return paddingIdx;
  }

  /** A 2-D input: each row a bag. */
  @Override
  public Tensor forward(Tensor input) {
    return forward(input, null, null);
  }

  /** A 1-D input cut into bags at offsets (or a 2-D one with offsets null). */
  public Tensor forward(Tensor input, Tensor offsets) {
    return forward(input, offsets, null);
  }

  /** perSampleWeights (mode "sum" only, input's shape) scale each element's row; null for none. */
  public Tensor forward(Tensor input, Tensor offsets, Tensor perSampleWeights) {
    return EmbeddingBags.embeddingBag(input, weight, offsets, maxNorm, normType, mode, perSampleWeights, includeLastOffset, paddingIdx);
  }

  @Override
  protected String extraRepr() {
    return weight.shape()[0] + ", " + weight.shape()[1] + (maxNorm == null ? "" : ", max_norm=" + ModuleRepr.f(maxNorm))
        + (normType == 2 ? "" : ", norm_type=" + ModuleRepr.f(normType)) + ", mode='" + mode + "'" + (paddingIdx == null ? "" : ", padding_idx=" + paddingIdx);
  }
}
