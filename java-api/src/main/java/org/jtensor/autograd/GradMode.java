package org.jtensor.autograd;

/**
 * Whether ops record the graph, per thread (torch.no_grad / torch.enable_grad). On by default;
 * {@code try (var g = GradMode.noGrad()) { ... }} turns it off inside the block and restores the
 * previous state when the block ends, however it ends.
 */
public final class GradMode {
  private static final ThreadLocal<boolean[]> ENABLED = ThreadLocal.withInitial(() -> new boolean[] {true});
  // this thread's open scopes, innermost first: each restores the state the one before it set, so they close in that order
  private static final ThreadLocal<java.util.ArrayDeque<Scope>> OPEN = ThreadLocal.withInitial(java.util.ArrayDeque::new);

  private GradMode() {}

  /** Restores the grad mode that was in force when it was made. */
  public static final class Scope implements AutoCloseable {
    private final boolean previous;
    private final Thread owner = Thread.currentThread();
    private boolean closed;

    private Scope(boolean enabled) {
      boolean[] state = ENABLED.get();
      previous = state[0];
      state[0] = enabled;
      OPEN.get().push(this);
    }

    /** Restores the mode in force when this scope was made. Closing twice does nothing; closing an outer scope before an inner one is refused. */
    @Override
    public void close() {
      if (closed) return;
      if (Thread.currentThread() != owner) {
        throw new IllegalStateException("GradMode.Scope.close(): the scope belongs to thread '" + owner.getName() + "'");
      }
      if (OPEN.get().peek() != this) {
        // closing an outer scope first would restore its state, and the inner one's close then the outer's: left off for good
        throw new IllegalStateException("GradMode.Scope.close(): scopes must be closed innermost first (use try-with-resources)");
      }
      OPEN.get().pop();
      closed = true;
      ENABLED.get()[0] = previous;
    }
  }

  public static boolean isEnabled() {
    return ENABLED.get()[0];
  }

  public static void setEnabled(boolean enabled) {
    ENABLED.get()[0] = enabled;
  }

  /** Ops inside record nothing: results do not require grad (torch.no_grad). */
  public static Scope noGrad() {
    return new Scope(false);
  }

  /** Ops inside record the graph even within a noGrad block (torch.enable_grad). */
  public static Scope enableGrad() {
    return new Scope(true);
  }

  /** A scope with the given mode (torch.set_grad_enabled as a context manager). */
  public static Scope enabled(boolean enabled) {
    return new Scope(enabled);
  }
}
