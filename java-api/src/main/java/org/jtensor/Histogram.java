package org.jtensor;

/** The (hist, binEdges) pair of histogram, as PyTorch's named tuple; closes both. */
public record Histogram(Tensor hist, Tensor binEdges) implements AutoCloseable {
  @Override
  public void close() {
    hist.close();
    binEdges.close();
  }
}
