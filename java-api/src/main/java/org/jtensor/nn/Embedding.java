package org.jtensor.nn;

import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;

/** A lookup table of embeddingDim-wide rows, initialised N(0, 1) as PyTorch's (torch.nn.Embedding). */
public final class Embedding extends Module {
  private final Tensor weight;

  public Embedding(long numEmbeddings, long embeddingDim, Generator g) {
    Tensor w;
    try (GradMode.Scope off = GradMode.noGrad()) {
      w = Tensor.randn(new long[] {numEmbeddings, embeddingDim}, DType.FLOAT32, g);
    }
    weight = registerParameter("weight", w);
  }

  public Tensor weight() {
    return weight;
  }

  @Override
  public Tensor forward(Tensor indices) {
    return Functional.embedding(indices, weight);
  }
}
