package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;

/**
 * A lookup table of embeddingDim-wide rows, initialised N(0, 1) as PyTorch's (torch.nn.Embedding).
 * With a padding index, that row starts at zero and receives no gradient (its lookups still
 * return its current values), as PyTorch's padding_idx; a negative index counts from the end.
 */
public final class Embedding extends Module {
  private final Tensor weight;
  private final Long paddingIdx;  // in [0, numEmbeddings), or null

  /** PyTorch's Embedding(num_embeddings, embedding_dim), from the default generator. */
  public Embedding(long numEmbeddings, long embeddingDim) {
    this(numEmbeddings, embeddingDim, null, Generator.defaultGenerator());
  }

  /** Embedding(num_embeddings, embedding_dim, padding_idx=...), from the default generator. */
  public Embedding(long numEmbeddings, long embeddingDim, long paddingIdx) {
    this(numEmbeddings, embeddingDim, paddingIdx, Generator.defaultGenerator());
  }

  public Embedding(long numEmbeddings, long embeddingDim, Generator g) {
    this(numEmbeddings, embeddingDim, null, g);
  }

  /** paddingIdx null: none. */
  public Embedding(long numEmbeddings, long embeddingDim, Long paddingIdx, Generator g) {
    if (numEmbeddings < 0 || embeddingDim < 0) {
      throw new IllegalArgumentException("Embedding(): num_embeddings and embedding_dim must be >= 0, got " + numEmbeddings + " and "
          + embeddingDim);
    }
    if (paddingIdx != null && (paddingIdx >= numEmbeddings || paddingIdx < -numEmbeddings)) {
      throw new IllegalArgumentException("Embedding(): Padding_idx must be within num_embeddings, got padding_idx " + paddingIdx
          + " for " + numEmbeddings + " embeddings");
    }
    this.paddingIdx = paddingIdx == null ? null : paddingIdx < 0 ? paddingIdx + numEmbeddings : paddingIdx;
    Tensor w;
    try (GradMode.Scope off = GradMode.noGrad()) {
      w = Tensor.randn(new long[] {numEmbeddings, embeddingDim}, DType.FLOAT32, g);
      if (this.paddingIdx != null) {
        try (Tensor row = w.select(0, this.paddingIdx)) {
          row.fill_(0.0);
        }
      }
    }
    weight = registerParameter("weight", w);
  }

  public Tensor weight() {
    return weight;
  }

  /** The padding index in [0, numEmbeddings), or null. */
  public Long paddingIdx() {
    return paddingIdx;
  }

  @Override
  public Tensor forward(Tensor indices) {
    return paddingIdx == null ? Functional.embedding(indices, weight) : Functional.embedding(indices, weight, paddingIdx);
  }
}
