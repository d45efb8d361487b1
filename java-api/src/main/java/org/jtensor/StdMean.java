package org.jtensor;

/** The (std, mean) pair of stdMean, as PyTorch's std_mean tuple; closes both. */
public record StdMean(Tensor std, Tensor mean) implements AutoCloseable {
  @Override
  public void close() {
    std.close();
    mean.close();
  }
}
