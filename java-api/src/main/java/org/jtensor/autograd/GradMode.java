package org.jtensor.autograd;

import org.jtensor.core.InferenceMode;

/**
 * Whether ops record the graph, per thread (torch.no_grad / torch.enable_grad / torch.inference_mode).
 * On by default; {@code try (var g = GradMode.noGrad()) { ... }} turns it off inside the block and
 * restores the previous state when the block ends, however it ends.
 *
 * <p>{@code try (var g = GradMode.inferenceMode()) { ... }} is PyTorch's inference_mode: nothing is
 * recorded, and every tensor the block allocates is an inference tensor ({@code Tensor.isInference()}):
 * outside inference mode it cannot be written in place, saved for backward or made to require grad,
 * and has no version counter (Note [Inference tensors] in core.StorageImpl). Two differences from
 * PyTorch: {@code enableGrad()} inside inference mode records nothing in either, and here
 * {@link #isEnabled()} says so (false), where torch.is_grad_enabled() says True; and an op outside
 * refuses an inference operand its derivative reads even when that derivative's gradient is not
 * needed (a Linear built in inference mode, run outside: PyTorch runs it and its backward leaves
 * the weight's grad None).
 */
public final class GradMode {
  private static final ThreadLocal<boolean[]> ENABLED = ThreadLocal.withInitial(() -> new boolean[] {true});
  // inference mode's flag is core.InferenceMode's (a storage reads it when made); the scopes restore both
  // this thread's open scopes, innermost first: each restores the state the one before it set, so they close in that order
  private static final ThreadLocal<java.util.ArrayDeque<Scope>> OPEN = ThreadLocal.withInitial(java.util.ArrayDeque::new);

  private GradMode() {}

  /** Restores the grad mode (and inference mode) that was in force when it was made. */
  public static final class Scope implements AutoCloseable {
    private final boolean previous;
    private final boolean previousInference;
    private final Thread owner = Thread.currentThread();
    private boolean closed;

    private Scope(boolean enabled) {
      this(enabled, InferenceMode.isEnabled());
    }

    private Scope(boolean enabled, boolean inference) {
      boolean[] state = ENABLED.get();
      previous = state[0];
      previousInference = InferenceMode.isEnabled();
      state[0] = enabled;
      InferenceMode.set(inference);
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
      InferenceMode.set(previousInference);
    }
  }

  /** Whether ops record the graph now: grad mode on and inference mode off. */
  public static boolean isEnabled() {
    return ENABLED.get()[0] && !InferenceMode.isEnabled();
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

  /** Inference mode inside (torch.inference_mode()): nothing recorded, new tensors are inference tensors. */
  public static Scope inferenceMode() {
    return inferenceMode(true);
  }

  /**
   * torch.inference_mode(mode): true as {@link #inferenceMode()}; false turns inference mode off
   * inside (within an inference-mode block) and grad mode on, as PyTorch's does.
   */
  public static Scope inferenceMode(boolean mode) {
    return new Scope(!mode, mode);
  }

  /** torch.is_inference_mode_enabled(). */
  public static boolean isInferenceModeEnabled() {
    return InferenceMode.isEnabled();
  }
}
