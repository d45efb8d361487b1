package org.jtensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.jtensor.dispatch.Dispatcher;
import org.jtensor.core.TensorImpl;
import org.jtensor.core.StorageImpl;
import org.jtensor.ops.StorageBytes;

/**
 * A handle to a tensor's untyped storage (a flat run of bytes), as torch's UntypedStorage.
 * Each handle holds one reference; {@code close()} releases it (idempotent per handle).
 */
public final class Storage implements AutoCloseable {
  private final StorageImpl impl;
  private volatile boolean closed;

  Storage(StorageImpl impl) {
    this.impl = impl;  // the caller's reference moves into this handle
  }

  /** A new, uninitialized storage of nbytes on the device. */
  public static Storage allocate(long nbytes, Device device) {
    return new Storage(Dispatcher.backend(device).allocate(nbytes, "storage of " + nbytes + " bytes"));
  }

  /**
   * A CPU storage over nbytes at address, memory that other code owns (another JavaCPP library's
   * buffer, a mapped file). jtensor never frees those bytes: release runs exactly once, after the
   * last tensor or handle over the storage is closed (or the leak detector frees it), on whichever
   * thread that is; an exception from it is logged, not thrown. Its bytes show in memory stats as
   * wrapped_bytes, not as the caching allocator's.
   */
  public static Storage wrap(long address, long nbytes, Runnable release) {
    return wrap(address, nbytes, false, release);
  }

  /**
   * As {@link #wrap(long, long, Runnable)}, read-only when readOnly (a memory-mapped file's
   * bytes): every write through the storage then throws.
   */
  public static Storage wrap(long address, long nbytes, boolean readOnly, Runnable release) {
    return new Storage(StorageBytes.wrap(address, nbytes, readOnly, release, "wrapped storage of " + nbytes + " bytes"));
  }

  /**
   * A CPU storage over a direct buffer's remaining bytes, with no copy; the buffer stays reachable
   * while the storage lives. Read-only when the buffer is: every write through it then throws.
   * Keeping the buffer keeps its memory only when the buffer owns it (allocateDirect, FileChannel.map):
   * a buffer JNI made over another object's memory (JavaCPP's Pointer.asByteBuffer()) does not, so
   * wrap that memory with {@link #wrap(long, long, Runnable)} and a release that holds its owner.
   */
  public static Storage wrap(ByteBuffer direct) {
    return new Storage(StorageBytes.wrap("wrap", direct));
  }

  /** Whether writes are refused: a storage over a read-only buffer or a memory-mapped file. */
  public boolean isReadOnly() {
    return impl("isReadOnly").isReadOnly();
  }

  /**
   * The bytes as a little-endian direct ByteBuffer (CPU, at most 2 GiB). The buffer keeps the
   * storage alive until it is garbage-collected, as a NumPy array from torch's numpy() does, and
   * resize_ is refused until then (it would move the bytes from under the buffer); use
   * readFrom/writeTo for deterministic transfers.
   */
  public ByteBuffer asByteBuffer() {
    StorageImpl s = impl("asByteBuffer");
    return StorageBytes.asByteBuffer("asByteBuffer", s, 0, s.nbytes());
  }

  /**
   * Reads up to nbytes from ch straight into bytes [offset, offset + nbytes), with no intermediate
   * copy; returns the count read, less than nbytes only at the end of the stream. The channel must
   * block: a read that moves no byte (a non-blocking channel) fails with IOException.
   */
  public long readFrom(ReadableByteChannel ch, long offset, long nbytes) throws IOException {
    return StorageBytes.readFrom("readFrom", impl("readFrom"), ch, offset, nbytes);
  }

  /**
   * Writes bytes [offset, offset + nbytes) to ch, all of them, with no intermediate copy (the
   * channel sees them through a read-only buffer); returns nbytes. The channel must block.
   */
  public long writeTo(WritableByteChannel ch, long offset, long nbytes) throws IOException {
    return StorageBytes.writeTo("writeTo", impl("writeTo"), ch, offset, nbytes);
  }

  StorageImpl impl(String op) {
    if (closed) throw new IllegalStateException(op + "(): storage handle is closed");
    return impl;
  }

  public long nbytes() {
    return impl("nbytes").nbytes();
  }

  /** Address of the first byte; 0 for an empty or META storage. */
  public long dataPtr() {
    return impl("dataPtr").data();
  }

  public Device device() {
    return impl("device").device();
  }

  /** Whether both handles reach the same storage object (torch's is_alias_of on storages). */
  public boolean isAliasOf(Storage other) {
    return impl("isAliasOf") == other.impl("isAliasOf");
  }

  /** Copies src's bytes into this storage; sizes must match. */
  public Storage copy_(Storage src) {
    StorageImpl d = impl("copy_"), s = src.impl("copy_");
    if (d.nbytes() != s.nbytes()) {
      throw new IllegalArgumentException("copy_(): size mismatch, got " + d.nbytes() + " bytes and " + s.nbytes());
    }
    if (!d.device().equals(s.device())) {
      throw new IllegalArgumentException("copy_(): storages on " + d.device() + " and " + s.device());
    }
    Dispatcher.backend(d.device()).copyBytes("copy_", d, s, d.nbytes());
    return this;
  }

  /** Sets every byte to value. */
  public Storage fill_(byte value) {
    StorageImpl s = impl("fill_");
    try (Tensor bytes = asBytes(s)) {
      bytes.fill_(value & 0xff);
    }
    return this;
  }

  public Storage clone() {
    StorageImpl s = impl("clone");
    Storage c = allocate(s.nbytes(), s.device());
    try {
      return c.copy_(this);
    } catch (RuntimeException e) {  // this closed or resized on another thread meanwhile: the copy is nobody's
      c.close();
      throw e;
    }
  }

  /** Grows or shrinks the bytes in place, keeping the first min(old, new); tensors past the new end then refuse to run. */
  public Storage resize_(long nbytes) {
    impl("resize_").resize(nbytes);
    return this;
  }

  /** A new handle to the same storage. */
  public Storage share() {
    return new Storage(retained(impl("share")));
  }

  /** The storage's bytes as a 1-D uint8 tensor (its own reference). */
  private static Tensor asBytes(StorageImpl s) {
    return Tensor.wrap(TensorImpl.create(retained(s), DType.UINT8, new long[] {s.nbytes()}, new long[] {1}, 0));
  }

  private static StorageImpl retained(StorageImpl s) {
    s.retain();
    return s;
  }

  @Override
  public void close() {
    if (closed) return;
    synchronized (this) {
      if (closed) return;
      closed = true;
    }
    impl.release();
  }

  /** Prints the bytes as torch does for an untyped storage. */
  @Override
  public String toString() {
    StorageImpl s = impl("toString");
    StringBuilder sb = new StringBuilder();
    if (!s.device().isMeta() && s.nbytes() > 0) {
      try (Tensor bytes = asBytes(s)) {
        long[] v = bytes.toLongArray();
        for (long b : v) sb.append(' ').append(b).append('\n');
      }
    } else if (s.device().isMeta()) {
      sb.append("...\n");
    }
    return sb.append("[torch.storage.UntypedStorage(device=").append(s.device()).append(") of size ")
        .append(s.nbytes()).append(']').toString();
  }
}
