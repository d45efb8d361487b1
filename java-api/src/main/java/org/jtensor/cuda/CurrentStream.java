package org.jtensor.cuda;

import org.jtensor.Device;
import org.jtensor.dispatch.StreamRuntime;

/**
 * The calling thread's current CUDA stream, as PyTorch keeps one per thread: what
 * {@link Cuda#withStream} sets and its scope restores. The runtime's own per-thread stream (the
 * one jtensor's kernels, copies, allocations and cuBLAS calls use) is set alongside, so the two
 * always agree on a platform thread.
 */
final class CurrentStream {
  private CurrentStream() {}

  private static volatile StreamRuntime runtime;  // null until first asked: the CUDA presets' runtime

  /** A thread's stream scopes: the innermost one's stream (null: the default stream) and how deep they nest. */
  static final class State {
    CudaStream stream;
    int depth;
  }

  private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

  static StreamRuntime runtime() {
    StreamRuntime r = runtime;
    return r != null ? r : (runtime = StreamRuntime.cuda());
  }

  /** Runs streams and events over another runtime (tests of the Java logic, without a GPU); returns the previous one. */
  static StreamRuntime useRuntime(StreamRuntime r) {
    StreamRuntime old = runtime;
    runtime = r;
    return old;
  }

  static State state() {
    return STATE.get();
  }

  /** The thread's current stream on device; its default stream unless a scope set one there. */
  static CudaStream of(Device device) {
    CudaStream s = STATE.get().stream;
    return s != null && s.device().equals(device) ? s : CudaStream.defaultOf(device);
  }

  /**
   * Checks, naming op, that device is a CUDA device this process can run: IllegalArgumentException
   * for another device type, else the runtime's refusal (CUDA unavailable, an index out of range).
   */
  static StreamRuntime require(String op, Device device) {
    if (device == null) throw new IllegalArgumentException(op + "(): device must not be null");
    if (device.type() != Device.Type.CUDA) throw new IllegalArgumentException(op + "(): expected a CUDA device, got " + device);
    StreamRuntime r = runtime();
    r.requireDevice(op, device);
    return r;
  }

  /** Throws IllegalStateException naming op for a failed runtime call. */
  static void check(StreamRuntime r, String op, int error) {
    if (error != 0) throw new IllegalStateException(op + "(): CUDA error: " + r.errorName(error));
  }
}
