package org.jtensor.cuda;

import org.jtensor.Device;
import org.jtensor.access.CudaAccess;
import org.jtensor.access.SharedSecrets;
import org.jtensor.dispatch.StreamRuntime;

/**
 * torch.cuda.Stream: a queue of GPU work that runs in order, concurrently with other streams'.
 * Ops run on the calling thread's current stream ({@link Cuda#currentStream}, set by
 * {@link Cuda#withStream}); order work across streams with events ({@link #waitEvent},
 * {@link #waitStream}), and call {@code Tensor.recordStream} on a tensor used on a stream other
 * than the one it was allocated on, so its memory is not reused before that work has run.
 *
 * <p>A stream made here is jtensor's: {@link #close()} destroys it once nothing uses it any more
 * (a scope that made it current, a call running on another thread), after its queued work has
 * run. The default stream ({@link Cuda#defaultStream}) is the device's legacy default stream;
 * closing it does nothing. Using a closed stream throws IllegalStateException. A stream collected
 * unclosed is destroyed then.
 */
public final class CudaStream implements AutoCloseable {
  static {  // Note [Shared secrets]: how org.jtensor.ops holds a stream while it records a tensor's use on it
    SharedSecrets.setCudaAccess(new CudaAccess() {
      @Override
      public void hold(CudaStream stream, String op) {
        stream.hold(op);
      }

      @Override
      public void unhold(CudaStream stream) {
        stream.unhold();
      }
    });
  }

  private final Device device;
  private final int priority;
  private final long handle;   // the cudaStream_t's bits; 0 for the default stream
  private final StreamRuntime runtime;
  private final CudaHandle life;  // null for the default stream, which is never destroyed

  /** A new stream on device with priority 0 (torch.cuda.Stream(device)). */
  public CudaStream(Device device) {
    this(device, 0);
  }

  /**
   * A new stream on device. A lower priority number runs first when both streams have work; a
   * priority outside the device's range is clamped to it, as PyTorch does.
   *
   * @throws IllegalArgumentException when device is not a CUDA device
   * @throws UnsupportedOperationException when this process cannot run CUDA, naming why
   */
  public CudaStream(Device device, int priority) {
    runtime = CurrentStream.require("CudaStream", device);
    int[] range = runtime.priorityRange(device.index());
    this.device = device;
    this.priority = Math.max(range[1], Math.min(range[0], priority));
    long[] out = new long[1];
    CurrentStream.check(runtime, "CudaStream", runtime.createStream(device.index(), this.priority, out));
    this.handle = out[0];
    this.life = CudaHandle.stream(this, runtime, device, handle);
  }

  private CudaStream(Device device, StreamRuntime runtime) {
    this.device = device;
    this.priority = 0;
    this.handle = 0;
    this.runtime = runtime;
    this.life = null;
  }

  /** The default stream of a device already checked. */
  static CudaStream defaultOf(Device device) {
    return new CudaStream(device, CurrentStream.runtime());
  }

  public Device device() {
    return device;
  }

  public int priority() {
    return priority;
  }

  /** The cudaStream_t as a number (torch's {@code cuda_stream}), for other CUDA libraries; 0 for the default stream. */
  public long cudaStream() {
    return handle;
  }

  /** Whether this is the device's default stream. */
  public boolean isDefault() {
    return handle == 0;
  }

  /** True when every piece of work queued on the stream so far has finished. */
  public boolean query() {
    hold("query");
    try {
      int err = runtime.queryStream(handle);
      if (err == StreamRuntime.NOT_READY) return false;
      CurrentStream.check(runtime, "query", err);
      return true;
    } finally {
      unhold();
    }
  }

  /** Waits until the work queued on the stream so far has finished. */
  public void synchronize() {
    hold("synchronize");
    try {
      CurrentStream.check(runtime, "synchronize", runtime.synchronizeStream(handle));
    } finally {
      unhold();
    }
  }

  /** Work queued on this stream from now on waits for event; an event never recorded has nothing to wait for. */
  public void waitEvent(CudaEvent event) {
    if (event == null) throw new IllegalArgumentException("waitEvent(): event must not be null");
    event.blockStream("waitEvent", this);
  }

  /** Work queued on this stream from now on waits for the work queued on other so far. */
  public void waitStream(CudaStream other) {
    if (other == null) throw new IllegalArgumentException("waitStream(): stream must not be null");
    if (other.equals(this)) return;  // a stream's own work is in order already
    try (CudaEvent e = new CudaEvent()) {
      e.record("waitStream", other);
      e.blockStream("waitStream", this);
    }  // destroying an event a stream still waits for is allowed: CUDA frees it after the wait
  }

  /** A new event (no timing) recorded on this stream now; the caller closes it. */
  public CudaEvent recordEvent() {
    CudaEvent e = new CudaEvent();
    try {
      return e.record("recordEvent", this);
    } catch (RuntimeException ex) {
      e.close();
      throw ex;
    }
  }

  /** Records event on this stream now and returns it. */
  public CudaEvent recordEvent(CudaEvent event) {
    if (event == null) throw new IllegalArgumentException("recordEvent(): event must not be null");
    return event.record("recordEvent", this);
  }

  /** Destroys the stream once nothing uses it, after its queued work; idempotent; nothing for the default stream. */
  @Override
  public void close() {
    if (life != null) life.close();
  }

  StreamRuntime runtime() {
    return runtime;
  }

  /** Keeps the stream from being destroyed while op uses it; IllegalStateException once closed. */
  void hold(String op) {
    if (life != null && !life.hold()) throw new IllegalStateException(op + "(): " + this + " was closed");
  }

  void unhold() {
    if (life != null) life.unhold();
  }

  /** Makes this stream the calling thread's current one until the scope closes (Cuda.withStream). */
  CudaStreamScope open() {
    hold("withStream");
    CurrentStream.State state = CurrentStream.state();
    try {
      runtime.setCurrentStream(handle);
    } catch (RuntimeException e) {
      unhold();
      throw e;
    }
    CudaStreamScope scope = new CudaStreamScope(this, state.stream, ++state.depth);
    state.stream = this;
    return scope;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CudaStream && ((CudaStream) o).handle == handle && ((CudaStream) o).device.equals(device);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(handle) * 31 + device.hashCode();
  }

  @Override
  public String toString() {
    return "CudaStream(device=" + device + ", cudaStream=0x" + Long.toHexString(handle) + ")";
  }
}
