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
    this.paddingIdx = paddingIndex("Embedding", paddingIdx, numEmbeddings);
    weight = registerParameter("weight", initialWeight(numEmbeddings, embeddingDim, this.paddingIdx, g));
  }

  /** N(0, 1) float32 rows, the padding row (in range, or null) zeroed: Embedding's and EmbeddingBag's reset_parameters. */
  static Tensor initialWeight(long numEmbeddings, long embeddingDim, Long paddingIdx, Generator g) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      Tensor w = Tensor.randn(new long[] {numEmbeddings, embeddingDim}, DType.FLOAT32, g);
      if (paddingIdx != null) {
        try (Tensor row = w.select(0, paddingIdx)) {
          row.fill_(0.0);
        }
      }
      return w;
    }
  }

  /** Embedding.from_pretrained(embeddings): frozen, no padding index. */
  public static Embedding fromPretrained(Tensor embeddings) {
    return fromPretrained(embeddings, true, null);
  }

  /**
   * Embedding.from_pretrained(embeddings, freeze, padding_idx): the weight shares embeddings' storage
   * (the module holds its own handle) and keeps its dtype; frozen, it is a parameter that does not
   * require grad. The padding row keeps its values (it is not zeroed) and gets no gradient.
   */
  public static Embedding fromPretrained(Tensor embeddings, boolean freeze, Long paddingIdx) {
    if (embeddings.dim() != 2) {
      throw new IllegalArgumentException("Embedding.fromPretrained(): Embeddings parameter is expected to be 2-dimensional, got "
          + embeddings.dim() + "-D");
    }
    return new Embedding(embeddings, freeze, paddingIndex("Embedding.fromPretrained", paddingIdx, embeddings.shape()[0]));
  }

  private Embedding(Tensor embeddings, boolean freeze, Long paddingIdx) {
    this.paddingIdx = paddingIdx;
    try (GradMode.Scope off = GradMode.noGrad()) {
      weight = registerParameter("weight", embeddings.detach(), !freeze);
    }
  }

  /** padding_idx in [-n, n) as PyTorch's, counted from the end when negative; null stays null. */
  static Long paddingIndex(String op, Long paddingIdx, long n) {
    if (paddingIdx != null && (paddingIdx >= n || paddingIdx < -n)) {
      throw new IllegalArgumentException(op + "(): Padding_idx must be within num_embeddings, got padding_idx " + paddingIdx + " for " + n
          + " embeddings");
    }
    return paddingIdx == null ? null : paddingIdx < 0 ? paddingIdx + n : paddingIdx;
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

  @Override
  protected String extraRepr() {
    return weight.shape()[0] + ", " + weight.shape()[1] + (paddingIdx == null ? "" : ", padding_idx=" + paddingIdx);
  }
}
