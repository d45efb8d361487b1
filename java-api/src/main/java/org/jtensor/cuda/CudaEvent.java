package org.jtensor.cuda;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jtensor.Device;
import org.jtensor.dispatch.StreamRuntime;

/**
 * torch.cuda.Event: a marker recorded on a stream, done once the work queued there before it has
 * run. Other streams can wait for it ({@link CudaStream#waitEvent}), the host can poll or wait,
 * and two timing events measure the GPU time between them. As in PyTorch the CUDA event is made
 * when first recorded, on that stream's device; an event never recorded is done and has nothing
 * to wait for. {@link #close()} destroys it once no call uses it (as does the collector, for one
 * never closed); using it after throws IllegalStateException.
 */
public final class CudaEvent implements AutoCloseable {
  private final boolean timing;
  private final boolean blocking;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile CudaHandle life;  // null until first recorded

  /** An event without timing (cheaper to record and wait for). */
  public CudaEvent() {
    this(false, false);
  }

  public CudaEvent(boolean enableTiming) {
    this(enableTiming, false);
  }

  /**
   * @param enableTiming whether {@link #elapsedTime} may measure from or to it
   * @param blocking whether {@link #synchronize} sleeps the host thread rather than spinning
   */
  public CudaEvent(boolean enableTiming, boolean blocking) {
    this.timing = enableTiming;
    this.blocking = blocking;
  }

  public boolean isTimingEnabled() {
    return timing;
  }

  /** Whether it has been recorded on a stream. */
  public boolean isRecorded() {
    return life != null;
  }

  /** Records the event on the calling thread's current stream of cuda:0 and returns it. */
  public CudaEvent record() {
    CudaHandle l = life;
    Device device = l != null ? l.device : Device.cuda(0);
    CurrentStream.require("record", device);
    return record("record", CurrentStream.of(device));
  }

  /** Records the event on stream now (it is done once the work queued there so far has run) and returns it. */
  public CudaEvent record(CudaStream stream) {
    if (stream == null) throw new IllegalArgumentException("record(): stream must not be null");
    return record("record", stream);
  }

  CudaEvent record(String op, CudaStream stream) {
    stream.hold(op);
    try {
      CudaHandle l = created(op, stream);
      if (!l.hold()) throw closedError(op);
      try {
        CurrentStream.check(l.runtime, op, l.runtime.recordEvent(l.handle, stream.cudaStream()));
      } finally {
        l.unhold();
      }
    } finally {
      stream.unhold();
    }
    return this;
  }

  /** The CUDA event, made on stream's device by the first record. */
  private synchronized CudaHandle created(String op, CudaStream stream) {
    if (closed.get()) throw closedError(op);
    CudaHandle l = life;
    if (l == null) {
      StreamRuntime r = stream.runtime();
      long[] out = new long[1];
      CurrentStream.check(r, op, r.createEvent(stream.device().index(), timing, blocking, out));
      life = l = CudaHandle.event(this, r, stream.device(), out[0]);
    } else if (!l.device.equals(stream.device())) {
      throw new IllegalArgumentException(op + "(): Event device " + l.device + " does not match recording stream's device "
          + stream.device() + ".");
    }
    return l;
  }

  /** True when the work before its last record has run (or it was never recorded). */
  public boolean query() {
    CudaHandle l = held("query");
    if (l == null) return true;
    try {
      int err = l.runtime.queryEvent(l.handle);
      if (err == StreamRuntime.NOT_READY) return false;
      CurrentStream.check(l.runtime, "query", err);
      return true;
    } finally {
      l.unhold();
    }
  }

  /** Waits until the work before its last record has run; returns at once if it was never recorded. */
  public void synchronize() {
    CudaHandle l = held("synchronize");
    if (l == null) return;
    try {
      CurrentStream.check(l.runtime, "synchronize", l.runtime.synchronizeEvent(l.handle));
    } finally {
      l.unhold();
    }
  }

  /**
   * Milliseconds of GPU time from this event to end, both recorded with timing enabled and done.
   *
   * @throws IllegalArgumentException when either was made without timing
   * @throws IllegalStateException when either was never recorded, or its work has not finished
   */
  public float elapsedTime(CudaEvent end) {
    String op = "elapsedTime";
    if (end == null) throw new IllegalArgumentException(op + "(): end must not be null");
    if (!timing || !end.timing) {
      throw new IllegalArgumentException(op + "(): Both events must be created with enableTiming = true (new CudaEvent(true)).");
    }
    CudaHandle a = held(op);
    try {
      CudaHandle b = end == this ? a : end.held(op);
      try {
        if (a == null || b == null) throw new IllegalStateException(op + "(): Both events must be recorded before calculating elapsed time.");
        int errA = a.runtime.queryEvent(a.handle), errB = b.runtime.queryEvent(b.handle);
        if (errA == StreamRuntime.NOT_READY || errB == StreamRuntime.NOT_READY) {
          throw new IllegalStateException(op + "(): Both events must be completed before calculating elapsed time.");
        }
        float[] ms = new float[1];
        CurrentStream.check(a.runtime, op, a.runtime.elapsedTime(a.handle, b.handle, ms));
        return ms[0];
      } finally {
        if (b != null && end != this) b.unhold();
      }
    } finally {
      if (a != null) a.unhold();
    }
  }

  /** Makes stream's later work wait for this event (CudaStream.waitEvent). */
  void blockStream(String op, CudaStream stream) {
    stream.hold(op);
    try {
      CudaHandle l = held(op);
      if (l == null) return;
      try {
        CurrentStream.check(l.runtime, op, l.runtime.streamWaitEvent(stream.cudaStream(), l.handle));
      } finally {
        l.unhold();
      }
    } finally {
      stream.unhold();
    }
  }

  /** The CUDA event held for op, or null when it was never recorded; IllegalStateException once closed. */
  private CudaHandle held(String op) {
    if (closed.get()) throw closedError(op);
    CudaHandle l = life;
    if (l == null) return null;
    if (!l.hold()) throw closedError(op);
    return l;
  }

  private IllegalStateException closedError(String op) {
    return new IllegalStateException(op + "(): the CudaEvent was closed");
  }

  /** Destroys the CUDA event once no call uses it; idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) return;
    CudaHandle l;
    synchronized (this) {  // after a record making it on another thread, or before one (which then sees closed)
      l = life;
    }
    if (l != null) l.close();
  }

  @Override
  public String toString() {
    CudaHandle l = life;
    return "CudaEvent(" + (l == null ? "not recorded" : "device=" + l.device + ", cudaEvent=0x" + Long.toHexString(l.handle))
        + (timing ? ", timing" : "") + ")";
  }
}
