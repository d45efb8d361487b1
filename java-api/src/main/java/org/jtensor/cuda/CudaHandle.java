package org.jtensor.cuda;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jtensor.Device;
import org.jtensor.core.RefCounted;
import org.jtensor.dispatch.StreamRuntime;

/**
 * A CUDA stream or event that jtensor made: destroyed once its owner is closed (or collected
 * unclosed, as torch's Event is in its destructor) and no scope or running call holds it.
 */
final class CudaHandle extends RefCounted {
  private static final Logger LOG = Logger.getLogger("org.jtensor.cuda");
  private static final Cleaner CLEANER = Cleaner.create();

  final StreamRuntime runtime;
  final Device device;
  final long handle;
  private final boolean isStream;
  private final AtomicBoolean closed = new AtomicBoolean();

  private CudaHandle(Object owner, StreamRuntime runtime, Device device, long handle, boolean isStream) {
    this.runtime = runtime;
    this.device = device;
    this.handle = handle;
    this.isStream = isStream;
    CLEANER.register(owner, this::close);  // the action holds this, never the owner
  }

  static CudaHandle stream(CudaStream owner, StreamRuntime runtime, Device device, long handle) {
    return new CudaHandle(owner, runtime, device, handle, true);
  }

  static CudaHandle event(CudaEvent owner, StreamRuntime runtime, Device device, long handle) {
    return new CudaHandle(owner, runtime, device, handle, false);
  }

  /** Drops the owner's reference, once. */
  void close() {
    if (closed.compareAndSet(false, true)) release();
  }

  @Override
  protected void deallocate() {
    // A stream's queued work is waited for first: the caching allocator keeps blocks per stream
    // handle, and a stream made later may get this handle, whose work must not overtake ours on them.
    // Runs where the last use ends (a close, a scope's close, the cleaner): failures are logged, not thrown there.
    int err = isStream ? runtime.synchronizeStream(handle) : 0;
    if (err == 0) err = isStream ? runtime.destroyStream(handle) : runtime.destroyEvent(handle);
    if (err != 0) LOG.log(Level.WARNING, "destroying " + describe() + " failed: " + runtime.errorName(err));
  }

  @Override
  protected String describe() {
    return (isStream ? "CUDA stream 0x" : "CUDA event 0x") + Long.toHexString(handle) + " on " + device;
  }
}
