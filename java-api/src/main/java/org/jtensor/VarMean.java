package org.jtensor;

/** The (var, mean) pair of varMean, as PyTorch's var_mean tuple; closes both. */
public record VarMean(Tensor var, Tensor mean) implements AutoCloseable {
  @Override
  public void close() {
    var.close();
    mean.close();
  }
}
