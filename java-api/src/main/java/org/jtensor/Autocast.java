package org.jtensor;

import java.util.Map;
import java.util.TreeMap;
import org.jtensor.ops.Autocasting;

/**
 * Automatic mixed precision, per thread (torch.autocast):
 * {@code try (Autocast a = Autocast.enable(Device.CPU, DType.BFLOAT16)) { loss = ...forward...; }}.
 * Inside the block, the matrix products and convolutions (matmul, mm, bmm, addmm, baddbmm,
 * linear, conv1d/2d/3d, convTranspose1d/2d/3d, scaledDotProductAttention; einsum and
 * MultiheadAttention through them) cast their floating inputs to the autocast dtype and compute
 * there; the losses and prod ({@link #float32Ops()}) cast theirs to float32; every other op runs
 * on the dtypes it is given, multi-input ones promoting to the widest. float64, integer and bool
 * tensors are never cast, nor tensors on another device type. Each cast is the recorded
 * {@code to(dtype)}, so backward flows through it: a float32 parameter gets a float32 gradient.
 * As in PyTorch, run {@code backward()} after the block (the gradients of each op come back in the
 * dtype it computed in either way) and keep the parameters and the optimizer in float32.
 *
 * <p>Scopes nest and restore the previous state when they close, however the block ends;
 * {@code Autocast.disable(Device.CPU)} (PyTorch's {@code enabled=False}) turns it off inside an
 * enclosing one. The state is the thread's own: other threads are not affected.
 */
public final class Autocast implements AutoCloseable {
  // this thread's open scopes, innermost first: each restores the state the one before it set, so they close in that order
  private static final ThreadLocal<java.util.ArrayDeque<Autocast>> OPEN = ThreadLocal.withInitial(java.util.ArrayDeque::new);
  private final Device.Type type;
  private final int[] previous;
  private final Thread owner = Thread.currentThread();
  private boolean closed;

  private Autocast(Device device, boolean enabled, DType dtype) {
    this.type = device.type();
    this.previous = Autocasting.set(type, enabled, dtype);
    OPEN.get().push(this);
  }

  /**
   * Autocast to dtype (BFLOAT16 or FLOAT16) for ops on device's type (CPU, CUDA) until the scope
   * closes (torch.autocast(device_type, dtype)).
   */
  public static Autocast enable(Device device, DType dtype) {
    checkDevice("enable", device);
    if (dtype == null) throw new IllegalArgumentException("Autocast.enable(): dtype must not be null");
    if (dtype != DType.BFLOAT16 && dtype != DType.FLOAT16) {
      throw new IllegalArgumentException("Autocast.enable(): dtype must be a lower-precision floating dtype (bfloat16 or float16), got "
          + dtype);
    }
    return new Autocast(device, true, dtype);
  }

  /** Autocast off for ops on device's type until the scope closes (torch.autocast(..., enabled=False)). */
  public static Autocast disable(Device device) {
    checkDevice("disable", device);
    return new Autocast(device, false, Autocasting.dtype(device.type()));
  }

  /** Whether autocast is on for device's type in this thread (torch.is_autocast_enabled(device_type)). */
  public static boolean isEnabled(Device device) {
    checkDevice("isEnabled", device);
    return Autocasting.isEnabled(device.type());
  }

  /**
   * The dtype autocast casts to on device's type in this thread, whether or not it is on
   * (torch.get_autocast_dtype: bfloat16 on the CPU, float16 on CUDA until a scope says otherwise).
   */
  public static DType dtype(Device device) {
    checkDevice("dtype", device);
    return Autocasting.dtype(device.type());
  }

  /** The ops that compute in the autocast dtype, by the names you call them. */
  public static java.util.Set<String> lowerPrecisionOps() {
    return opsOn(Autocasting.Policy.LOWER_PRECISION);
  }

  /** The ops that compute in float32 under autocast, by the names you call them. */
  public static java.util.Set<String> float32Ops() {
    return opsOn(Autocasting.Policy.FLOAT32);
  }

  private static java.util.Set<String> opsOn(Autocasting.Policy policy) {
    Map<String, Autocasting.Policy> sorted = new TreeMap<>(Autocasting.policies());
    sorted.values().removeIf(p -> p != policy);
    return java.util.Collections.unmodifiableSet(sorted.keySet());
  }

  private static void checkDevice(String op, Device device) {
    if (device == null) throw new IllegalArgumentException("Autocast." + op + "(): device must not be null");
    if (device.isMeta()) throw new IllegalArgumentException("Autocast." + op + "(): device must be a CPU or CUDA device, got meta");
  }

  /** Restores the state in force when this scope was made. Closing twice does nothing; closing an outer scope before an inner one is refused. */
  @Override
  public void close() {
    if (closed) return;
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("Autocast.close(): the scope belongs to thread '" + owner.getName() + "'");
    }
    if (OPEN.get().peek() != this) {
      // closing an outer scope first would restore its state, and the inner one's close then the outer's state: left on for good
      throw new IllegalStateException("Autocast.close(): scopes must be closed innermost first (use try-with-resources)");
    }
    OPEN.get().pop();
    closed = true;
    Autocasting.restore(type, previous);
  }
}
