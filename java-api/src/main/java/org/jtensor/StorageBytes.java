package org.jtensor;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.jtensor.core.DirectBuffers;
import org.jtensor.core.StorageImpl;
import org.jtensor.dispatch.Dispatcher;

/**
 * Storage bytes to and from the JDK's buffers and channels, with no intermediate copy: wrapping
 * direct buffers and foreign memory, channel transfers straight into and out of a storage, and
 * buffer views that keep their storage alive.
 */
final class StorageBytes {
  private static final Cleaner CLEANER = Cleaner.create();

  private StorageBytes() {}

  static StorageImpl wrap(String op, long address, long nbytes, boolean readOnly, Runnable release, Object what) {
    return Dispatcher.backend(Device.CPU).memory().wrap(address, nbytes, readOnly, release, what);
  }

  /** A storage over a direct buffer's [position, limit): the storage's release keeps the buffer reachable until then. */
  static StorageImpl wrap(String op, ByteBuffer direct) {
    if (direct == null) throw new IllegalArgumentException(op + "(): buffer must not be null");
    if (!direct.isDirect()) {
      throw new IllegalArgumentException(op + "(): the buffer must be direct (ByteBuffer.allocateDirect or a mapped file); "
          + "copy a heap buffer's array with Tensor.fromArray");
    }
    long address = direct.remaining() == 0 ? 0 : DirectBuffers.address(direct);
    ByteBuffer keep = direct;  // the release closure keeps the buffer (and a mapping) reachable
    return wrap(op, address, direct.remaining(), direct.isReadOnly(), () -> java.lang.ref.Reference.reachabilityFence(keep),
        "storage wrapping a direct buffer of " + direct.remaining() + " bytes");
  }

  /**
   * A little-endian direct buffer over [offset, offset + nbytes) of s that holds s alive until
   * the buffer (and every slice or duplicate of it) is garbage-collected.
   */
  static ByteBuffer asByteBuffer(String op, StorageImpl s, long offset, long nbytes) {
    if (!s.device().isCpu()) throw new UnsupportedOperationException(op + "(): only CPU bytes can be seen as a ByteBuffer, not " + s.device());
    if (nbytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(op + "(): " + nbytes + " bytes do not fit one ByteBuffer (at most " + Integer.MAX_VALUE
          + "); use Storage.readFrom/writeTo or a narrower view");
    }
    s.retain();  // the buffer's own reference, given back by the cleaner
    ByteBuffer root = DirectBuffers.window(s.data() + offset, (int) nbytes);
    CLEANER.register(root, s::release);  // slices and duplicates keep root reachable
    return s.isReadOnly() ? root.asReadOnlyBuffer().order(root.order()) : root;
  }

  /** Reads up to nbytes from ch into s's bytes [offset, offset + nbytes); the count read. */
  static long readFrom(String op, StorageImpl s, ReadableByteChannel ch, long offset, long nbytes) throws IOException {
    checkRange(op, s, offset, nbytes);
    if (s.isReadOnly()) throw readOnly(op, s);
    return transfer(op, s, offset, nbytes, window -> {
      int before = window.position();
      while (window.hasRemaining() && ch.read(window) >= 0) {
        // read() returns 0 only on a non-blocking channel with nothing ready: try again
      }
      return window.position() - before;
    });
  }

  /** Writes s's bytes [offset, offset + nbytes) to ch, every one of them. */
  static long writeTo(String op, StorageImpl s, WritableByteChannel ch, long offset, long nbytes) throws IOException {
    checkRange(op, s, offset, nbytes);
    return transfer(op, s, offset, nbytes, window -> {
      int n = window.remaining();
      while (window.hasRemaining()) ch.write(window);
      return n;
    });
  }

  static IllegalStateException readOnly(String op, StorageImpl s) {
    return new IllegalStateException(op + "(): the " + s + " is read-only (a read-only buffer or a memory-mapped file); "
        + "clone() it to get a writable copy");
  }

  private interface WindowIo {
    int apply(ByteBuffer window) throws IOException;
  }

  // Held, not merely open: a close() on another thread cannot free the bytes under the transfer.
  private static long transfer(String op, StorageImpl s, long offset, long nbytes, WindowIo io) throws IOException {
    if (!s.device().isCpu()) throw new UnsupportedOperationException(op + "(): only CPU storages, not " + s.device());
    if (!s.hold()) throw new IllegalStateException(op + "(): the storage was released or is being resized on another thread");
    try {
      long done = 0;
      while (done < nbytes) {
        int n = (int) Math.min(DirectBuffers.MAX_WINDOW, nbytes - done);
        int moved = io.apply(DirectBuffers.window(s.data() + offset + done, n));
        done += moved;
        if (moved < n) break;  // end of stream
      }
      return done;
    } finally {
      s.unhold();
    }
  }

  private static void checkRange(String op, StorageImpl s, long offset, long nbytes) {
    if (offset < 0 || nbytes < 0 || offset > s.nbytes() - nbytes) {
      throw new IndexOutOfBoundsException(op + "(): bytes [" + offset + ", " + offset + " + " + nbytes + ") are outside the "
          + s.nbytes() + "-byte storage");
    }
  }
}
