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
  private final boolean wrapped;    // the bytes belong to other code (Storage.wrap, Tensor.fromBuffer)
  private final boolean inference;  // made in inference mode: Note [Inference tensors]
  // A wrapped storage's owner release, run once after the native free, then dropped: it may hold the
  // owner's buffer (a direct ByteBuffer, a mapping), which a closed handle must not keep reachable.
  private volatile Runnable onFree;

  // ByteBuffers from asByteBuffer() still reachable: they see data() as it was, so resize_ must
  // not move or free it until every one of them is collected.
  private volatile int exported;  // changed through EXPORTS: no object of its own, storages come with every op

  private static final VarHandle DATA, NBYTES, ON_FREE, EXPORTS;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      DATA = l.findVarHandle(StorageImpl.class, "data", long.class);
      NBYTES = l.findVarHandle(StorageImpl.class, "nbytes", long.class);
      ON_FREE = l.findVarHandle(StorageImpl.class, "onFree", Runnable.class);
      EXPORTS = l.findVarHandle(StorageImpl.class, "exported", int.class);
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
    this.wrapped = onFree != null;
    this.inference = InferenceMode.isEnabled();
    if (onFree != null) ON_FREE.setRelease(this, onFree);  // an ordinary storage pays no store, let alone a fence
    NBYTES.setRelease(this, nbytes);
    DATA.setRelease(this, handle == 0 ? 0 : NativeMemory.data(handle));
    this.track = handle == 0 ? null : LeakTracker.track(this, handle, nbytes, what, onFree);
  }

  /** Whether writes into these bytes are refused. */
  public boolean isReadOnly() {
    return readOnly;
  }

  /*
   * Note [Inference tensors] PyTorch's inference_mode makes every tensor it allocates an
   * inference tensor: no version counter, never saved for backward, and written in place only
   * inside inference mode again. Its views are inference tensors too, while a view of a normal
   * tensor made in inference mode stays normal. Both are what a mark on the storage gives: a
   * storage made in inference mode is an inference storage, and a tensor is an inference tensor
   * when its storage is one.
   */

  /** PyTorch's words for a write into an inference tensor outside inference mode (every refusal of one quotes them). */
  public static final String INFERENCE_WRITE = "Inplace update to inference tensor outside InferenceMode is not allowed";

  /** Whether these bytes were allocated in inference mode (Note [Inference tensors]). */
  public boolean isInference() {
    return inference;
  }

  /** Whether an op may write these bytes now: not read-only, and not an inference storage outside inference mode. */
  public boolean isWritable() {
    return !readOnly && (!inference || InferenceMode.isEnabled());
  }

  /** Refuses a write into these bytes, naming op as the user called it, unless isWritable(). */
  public void checkWritable(String op) {
    if (readOnly) throw readOnlyError(op);
    if (inference && !InferenceMode.isEnabled()) {
      throw new IllegalStateException(op + "(): " + INFERENCE_WRITE + ". You can make a clone to get a normal tensor before doing "
          + "inplace update.");
    }
  }

  /** The error for a write into these bytes when they are read-only, naming op as the user called it. */
  public IllegalStateException readOnlyError(String op) {
    return new IllegalStateException(op + "(): the " + describe() + " refuses writes (it is over a read-only buffer or a "
        + "memory-mapped file); clone() it to get a writable copy");
  }

  /**
   * Counts a ByteBuffer over these bytes that escapes to the user; the caller holds this storage
   * (so no resize_ runs meanwhile); {@link BufferExports} calls {@link #unexport()} once the buffer is collected.
   */
  void export() {
    EXPORTS.getAndAdd(this, 1);
  }

  void unexport() {
    EXPORTS.getAndAdd(this, -1);
  }

  /** Whether the bytes belong to other code (Storage.wrap, Tensor.fromBuffer) rather than an allocator. */
  public boolean isWrapped() {
    return wrapped;
  }

  public Device device() {
    return memory.device();
  }

  /** Whether the bytes are page-locked host memory (pin_memory), which a GPU copies asynchronously. */
  public boolean isPinned() {
    return memory.isPinned();
  }

  /**
   * recordStream: the bytes are used by work queued on stream (a cudaStream_t's bits), so once
   * freed they are not handed out again before that work has run. Nothing to do for memory that
   * no stream reaches (the CPU's own, wrapped, META).
   */
  public void recordStream(String op, long stream) {
    if (handle == 0) return;
    if (!hold()) throw new IllegalStateException(op + "(): " + describe() + " was already released");
    try {
      if (!NativeMemory.recordStream(handle, stream)) {  // the block's list of streams could not grow
        throw memory.outOfMemory(op);
      }
    } finally {
      unhold();
    }
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
      if (exported > 0) {  // read under exclusive use: no export can start meanwhile (it needs a hold)
        throw new IllegalStateException("resize_(): a ByteBuffer from asByteBuffer() still sees the " + describe()
            + " (until it is garbage-collected): resizing would leave it over freed memory; clone() the storage instead");
      }
      if (handle != 0) {
        if (!NativeMemory.resize(handle, newBytes)) {
          throw memory.outOfMemory(newBytes);
        }
        data = NativeMemory.data(handle);
        if (track != null) track.resized(newBytes);  // a storage grown from 16 bytes to 64 MiB counted 16
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
    Runnable release = onFree;
    if (release != null) {  // after the native free: no native code can reach the bytes any more
      onFree = null;
      runOwnerRelease(release, describe());
    }
  }

  /**
   * Runs a wrapped storage's owner release. It runs wherever the last reference goes: a close(),
   * a kernel on another thread ending its hold, the leak detector. So a failure in it is logged,
   * never thrown into that unrelated code (where it would also skip the kernel's other unholds
   * and leak their storages), as a JDK Cleaner does with a failing action.
   */
  static void runOwnerRelease(Runnable release, Object what) {
    try {
      release.run();
    } catch (Throwable e) {
      java.util.logging.Logger.getLogger("org.jtensor.wrap").log(java.util.logging.Level.WARNING,
          "the release given to Storage.wrap for a " + what + " threw; its bytes are no longer jtensor's either way", e);
    }
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
