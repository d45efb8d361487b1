package org.jtensor.core;

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
  private final DeviceMemory memory;  // the allocator that owns the block
  private final long handle;  // native StorageImpl*, 0 for META
  private volatile long data;    // volatile for resize(); set in the constructor by release stores
  private volatile long nbytes;
  private final LeakTracker.Track track;  // null for META or with leak detection disabled
  private final boolean readOnly;   // writes are refused (HeldOperands.output): a read-only buffer or mapped file
  private final Runnable onFree;    // a wrapped storage's owner release, run once after the native free; else null

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

  StorageImpl(DeviceMemory memory, long handle, long nbytes, Object what) {
    this(memory, handle, nbytes, what, false, null);
  }

  /** A storage over wrapped bytes (Note [Wrapped storages] in foreign_allocator.h) when onFree is set. */
  StorageImpl(DeviceMemory memory, long handle, long nbytes, Object what, boolean readOnly, Runnable onFree) {
    this.memory = memory;
    this.handle = handle;
    this.readOnly = readOnly;
    this.onFree = onFree;
    NBYTES.setRelease(this, nbytes);
    DATA.setRelease(this, handle == 0 ? 0 : NativeMemory.data(handle));
    this.track = handle == 0 ? null : LeakTracker.track(this, handle, what, onFree);
  }

  /** Whether writes into these bytes are refused. */
  public boolean isReadOnly() {
    return readOnly;
  }

  /** Whether the bytes belong to other code (Storage.wrap, Tensor.fromBuffer) rather than an allocator. */
  public boolean isWrapped() {
    return onFree != null;
  }

  public Device device() {
    return memory.device();
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
    if (isWrapped()) {
      throw new UnsupportedOperationException("resize_(): the storage wraps memory owned elsewhere (Storage.wrap, "
          + "Tensor.fromBuffer or a mapped file) and cannot be resized; clone() it first");
    }
    if (!tryExclusive()) {
      throw new IllegalStateException("resize_(): " + describe()
          + (isReleased() ? " was already released" : " is in use by an op running on another thread"));
    }
    try {
      if (handle != 0) {
        if (!NativeMemory.resize(handle, newBytes)) {
          throw memory.outOfMemory(newBytes);
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
    if (onFree != null) onFree.run();  // after: no native code can reach the bytes any more
  }

  @Override
  public String toString() {
    return describe();
  }

  @Override
  protected String describe() {
    return (readOnly ? "read-only " : "") + (isWrapped() ? "wrapped " : "") + "storage of " + nbytes + " bytes on "
        + memory.device();
  }
}
