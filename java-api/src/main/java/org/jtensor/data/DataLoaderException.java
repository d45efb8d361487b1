package org.jtensor.data;

/**
 * Loading a batch failed: {@code dataset.get(index)} or the collate function threw, on a worker
 * thread or the caller's. The message names the index (or the batch, for collate), the thread and the
 * cause's message; the cause is the original exception. The iterator that threw it is closed.
 */
public final class DataLoaderException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final long index;
  private final long batch;

  DataLoaderException(String message, long index, long batch, Throwable cause) {
    super(message, cause);
    this.index = index;
    this.batch = batch;
  }

  /** The dataset index whose {@code get} failed, or -1 when the collate function did. */
  public long index() {
    return index;
  }

  /** The batch being loaded (0 is an epoch's first). */
  public long batch() {
    return batch;
  }
}
