package org.jtensor;

/** The (min, max) pair of aminmax, as PyTorch's named tuple; closes both. */
public record MinMax(Tensor min, Tensor max) implements AutoCloseable {
  @Override
  public void close() {
    min.close();
    max.close();
  }
}
