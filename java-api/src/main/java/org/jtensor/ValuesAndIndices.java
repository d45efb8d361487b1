package org.jtensor;

/** The (values, indices) pair of max(dim)/min(dim), as PyTorch's named tuple; closes both. */
public record ValuesAndIndices(Tensor values, Tensor indices) implements AutoCloseable {
  @Override
  public void close() {
    values.close();
    indices.close();
  }
}
