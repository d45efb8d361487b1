package org.jtensor.core;

/**
 * Whether this thread is in inference mode (torch.inference_mode; the public switch is
 * {@code GradMode.inferenceMode()}). Kept here, below autograd, because a storage reads it when
 * it is made: storages made in inference mode are inference storages (Note [Inference tensors]
 * in StorageImpl).
 */
public final class InferenceMode {
  private static final ThreadLocal<boolean[]> ON = ThreadLocal.withInitial(() -> new boolean[1]);

  private InferenceMode() {}

  public static boolean isEnabled() {
    return ON.get()[0];
  }

  /** Sets this thread's mode; GradMode's scopes restore the one before. */
  public static void set(boolean enabled) {
    ON.get()[0] = enabled;
  }
}
