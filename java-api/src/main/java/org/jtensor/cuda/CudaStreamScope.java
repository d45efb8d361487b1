package org.jtensor.cuda;

/**
 * What {@link Cuda#withStream} returns: while it is open, the ops of the thread that opened it run
 * on its stream; close() makes the stream current before it current again. Scopes nest; close them
 * innermost first, on the thread that opened them (try-with-resources does both). close() is idempotent.
 */
public final class CudaStreamScope implements AutoCloseable {
  private final Thread owner = Thread.currentThread();
  private final CudaStream stream;
  private final CudaStream previous;  // null: the default stream
  private final int depth;
  private boolean closed;

  CudaStreamScope(CudaStream stream, CudaStream previous, int depth) {
    this.stream = stream;
    this.previous = previous;
    this.depth = depth;
  }

  /** The stream this scope made current. */
  public CudaStream stream() {
    return stream;
  }

  @Override
  public void close() {
    if (closed) return;
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("close(): a withStream scope must be closed by the thread that opened it (" + owner.getName() + ")");
    }
    CurrentStream.State state = CurrentStream.state();
    if (state.depth != depth) {
      throw new IllegalStateException("close(): withStream scopes must close innermost first: this one is at depth " + depth
          + " of " + state.depth);
    }
    closed = true;
    state.depth--;
    state.stream = previous;
    try {
      stream.runtime().setCurrentStream(previous == null ? 0 : previous.cudaStream());
    } finally {
      stream.unhold();  // held while current: closing the stream meanwhile destroys it only now
    }
  }
}
