package org.jtensor;

/** frexp's (mantissa, exponent) pair, as PyTorch's named tuple; closes both. */
public record Frexp(Tensor mantissa, Tensor exponent) implements AutoCloseable {
  @Override
  public void close() {
    mantissa.close();
    exponent.close();
  }
}
