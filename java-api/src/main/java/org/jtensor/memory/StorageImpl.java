package org.jtensor.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jtensor.Device;

/**
 * Java's side of a storage: one reference to the native StorageImpl, shared by every tensor over
 * it. Tensors retain and release this object; the last release gives the native reference back,
 * which returns the block to the caching allocator. A META storage has a size and no bytes.
 *
 * <p>Note [Two counts, one owner] The native StorageImpl keeps its own intrusive count for
 * native holders; all Java holders together own exactly one native reference through this
 * object, so creating and closing a view never crosses JNI.
 */
public final class StorageImpl extends RefCounted {
  private final Device device;
  private final long handle;  // native StorageImpl*, 0 for META
  private volatile long data;    // volatile for resize(); set in the constructor by release stores
  private volatile long nbytes;
  private final LeakTracker.Track track;  // null for META or with leak detection disabled

  private static final VarHandle DATA, NBYTES;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      DATA = l.findVarHandle(StorageImpl.class, "data", long.class);
      NBYTES = l.findVarHandle(StorageImpl.class, "nbytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private StorageImpl(Device device, long handle, long nbytes, Object what) {
    this.device = device;
    this.handle = handle;
    NBYTES.setRelease(this, nbytes);
    DATA.setRelease(this, handle == 0 ? 0 : NativeMemory.data(handle));
    this.track = handle == 0 ? null : LeakDetector.track(this, handle, what);
  }

  /**
   * Allocates nbytes on the device from its caching allocator.
   *
   * @param what describes the owner in leak reports through its toString(), which runs only
   *     when a leak is reported (so allocation never formats strings)
   * @throws TensorOutOfMemoryException when the allocator cannot serve it even after a retry
   */
  public static StorageImpl allocate(long nbytes, Device device, Object what) {
    if (nbytes < 0) throw new IllegalArgumentException("storage size must be >= 0, got " + nbytes);
    switch (device.type()) {
      case META:
        return new StorageImpl(device, 0, nbytes, what);
      case CPU:
        long h = NativeMemory.allocate(nbytes);
        if (h == 0) throw Memory.outOfMemory(device, nbytes);
        return new StorageImpl(device, h, nbytes, what);
      default:
        throw new UnsupportedOperationException("storage allocation has no " + device + " backend in this build");
    }
  }

  public Device device() {
    return device;
  }

  /** Address of byte 0, or 0 for an empty or META storage. */
  public long data() {
    return data;
  }

  public long nbytes() {
    return nbytes;
  }

  /** The native StorageImpl's own count (1 while Java holds it); for tests of the native side. */
  public long nativeRefCount() {
    return handle == 0 ? 0 : NativeMemory.nativeRefCount(handle);
  }

  /**
   * Grows or shrinks the storage in place, keeping its first min(old, new) bytes. Exclusive: it
   * refuses while a kernel on another thread holds the storage, and no kernel starts meanwhile.
   */
  public synchronized void resize(long newBytes) {
    if (newBytes < 0) throw new IllegalArgumentException("resize_(): size must be >= 0, got " + newBytes);
    if (!tryExclusive()) {
      throw new IllegalStateException("resize_(): " + describe()
          + (isReleased() ? " was already released" : " is in use by an op running on another thread"));
    }
    try {
      if (handle != 0) {
        if (!NativeMemory.resize(handle, newBytes)) {
          throw Memory.outOfMemory(device, newBytes);
        }
        data = NativeMemory.data(handle);
      }
      nbytes = newBytes;
    } finally {
      endExclusive();
    }
  }

  @Override
  protected void deallocate() {
    if (handle == 0) return;
    if (track != null) track.release();  // before the free: the detector must never free it too
    NativeMemory.release(handle);
  }

  @Override
  protected String describe() {
    return "storage of " + nbytes + " bytes on " + device;
  }
}
