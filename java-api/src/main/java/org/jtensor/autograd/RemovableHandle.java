package org.jtensor.autograd;

/** Removes what registered it (a tensor hook), as PyTorch's RemovableHandle; removing twice does nothing. */
@FunctionalInterface
public interface RemovableHandle extends AutoCloseable {
  void remove();

  @Override
  default void close() {
    remove();
  }
}
