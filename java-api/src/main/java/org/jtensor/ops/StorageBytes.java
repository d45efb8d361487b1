package org.jtensor.ops;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.jtensor.Device;
import org.jtensor.core.BufferExports;
import org.jtensor.core.DirectBuffers;
import org.jtensor.core.StorageImpl;
import org.jtensor.dispatch.Dispatcher;

/**
 * Storage bytes to and from the JDK's buffers and channels, with no intermediate copy: wrapping
 * direct buffers and foreign memory, channel transfers straight into and out of a storage, and
 * buffer views that keep their storage alive.
 */
public final class StorageBytes {
  private StorageBytes() {}

  public static StorageImpl wrap(long address, long nbytes, boolean readOnly, Runnable release, Object what) {
    return Dispatcher.backend(Device.CPU).memory().wrap(address, nbytes, readOnly, release, what);
  }

  /** A storage over a direct buffer's [position, limit): the storage's release keeps the buffer reachable until then. */
  public static StorageImpl wrap(String op, ByteBuffer buffer) {
    if (buffer == null) throw new IllegalArgumentException(op + "(): buffer must not be null");
    ByteBuffer direct = snapshot(buffer);
    if (!direct.isDirect()) {
      throw new IllegalArgumentException(op + "(): the buffer must be direct (ByteBuffer.allocateDirect or a mapped file); "
          + "copy a heap buffer's array with Tensor.fromArray");
    }
    long address = direct.remaining() == 0 ? 0 : DirectBuffers.address(direct);
    ByteBuffer keep = direct;  // the release closure keeps the buffer (and a mapping) reachable
    return wrap(address, direct.remaining(), direct.isReadOnly(), () -> java.lang.ref.Reference.reachabilityFence(keep),
        "storage wrapping a direct buffer of " + direct.remaining() + " bytes");
  }

  /**
   * A duplicate of b: one position and limit, consistent with each other, that no other thread can
   * move between reading the address and the remaining count (read apart, they gave a storage
   * reaching past the buffer). It keeps b (and its memory or mapping) reachable.
   */
  static ByteBuffer snapshot(ByteBuffer b) {
    return b.duplicate();
  }

  /**
   * A little-endian direct buffer over [offset, offset + nbytes) of s that holds s alive until
   * the buffer (and every slice or duplicate of it) is garbage-collected, and keeps resize_ from
   * moving the bytes under it until then.
   */
  public static ByteBuffer asByteBuffer(String op, StorageImpl s, long offset, long nbytes) {
    if (!s.device().isCpu()) throw new UnsupportedOperationException(op + "(): only CPU bytes can be seen as a ByteBuffer, not " + s.device());
    if (nbytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(op + "(): " + nbytes + " bytes do not fit one ByteBuffer (at most " + Integer.MAX_VALUE
          + "); use Storage.readFrom/writeTo or a narrower view");
    }
    if (nbytes == 0) {  // sees no byte: nothing to keep alive or to keep resize_ from
      ByteBuffer none = DirectBuffers.window(0, 0);
      return s.isReadOnly() ? none.asReadOnlyBuffer().order(none.order()) : none;
    }
    // Held while the window is made: no resize_ can run between the range check, the address and the export.
    if (!s.hold()) throw new IllegalStateException(op + "(): the storage was released or is being resized on another thread");
    try {
      checkRange(op, s, offset, nbytes);  // a resize_ may have shrunk the storage under the tensor
      ByteBuffer root = DirectBuffers.window(s.data() + offset, (int) nbytes);
      BufferExports.register(root, s);  // slices and duplicates keep root reachable
      return s.isReadOnly() ? root.asReadOnlyBuffer().order(root.order()) : root;
    } finally {
      s.unhold();
    }
  }

  /**
   * Reads up to nbytes from ch into s's bytes [offset, offset + nbytes); the count read. The
   * channel must be blocking: a read that moves no byte (a non-blocking channel with nothing
   * ready) would otherwise spin forever, so it fails.
   */
  public static long readFrom(String op, StorageImpl s, ReadableByteChannel ch, long offset, long nbytes) throws IOException {
    checkChannel(op, ch);
    checkRange(op, s, offset, nbytes);
    s.checkWritable(op);
    return transfer(op, s, offset, nbytes, false, window -> {
      int before = window.position();
      while (window.hasRemaining()) {
        int at = window.position();
        if (ch.read(window) < 0) break;  // end of stream
        if (window.position() <= at) throw noProgress(op, "read");
      }
      return window.position() - before;
    });
  }

  /** Writes s's bytes [offset, offset + nbytes) to ch, every one of them; the channel sees them read-only. */
  public static long writeTo(String op, StorageImpl s, WritableByteChannel ch, long offset, long nbytes) throws IOException {
    checkChannel(op, ch);
    checkRange(op, s, offset, nbytes);
    return transfer(op, s, offset, nbytes, true, window -> {
      int n = window.remaining();
      while (window.hasRemaining()) {
        int at = window.position();
        ch.write(window);
        if (window.position() <= at) throw noProgress(op, "wrote");
      }
      return n;
    });
  }

  private static void checkChannel(String op, java.nio.channels.Channel ch) {
    if (ch == null) throw new IllegalArgumentException(op + "(): argument 'channel' must not be null");
    if (ch instanceof java.nio.channels.SelectableChannel sc && !sc.isBlocking()) {
      throw new IllegalArgumentException(op + "(): the channel is in non-blocking mode; configureBlocking(true) first");
    }
  }

  private static IOException noProgress(String op, String verb) {
    return new IOException(op + "(): the channel " + verb + " no bytes, as a non-blocking channel with nothing ready does; "
        + "use a blocking channel");
  }

  private interface WindowIo {
    int apply(ByteBuffer window) throws IOException;
  }

  // Held, not merely open: a close() on another thread cannot free the bytes under the transfer.
  // A channel that keeps the window past its call breaks the channel contract and is not guarded against.
  private static long transfer(String op, StorageImpl s, long offset, long nbytes, boolean readOnly, WindowIo io)
      throws IOException {
    if (!s.device().isCpu()) throw new UnsupportedOperationException(op + "(): only CPU storages, not " + s.device());
    if (!s.hold()) throw new IllegalStateException(op + "(): the storage was released or is being resized on another thread");
    try {
      checkRange(op, s, offset, nbytes);  // again, under the hold: a resize_ may have shrunk it since
      long done = 0;
      while (done < nbytes) {
        int n = (int) Math.min(DirectBuffers.MAX_WINDOW, nbytes - done);
        ByteBuffer window = DirectBuffers.window(s.data() + offset + done, n);
        // A channel we write to gets no way to write into the storage (a read-only mapping would crash).
        int moved = io.apply(readOnly ? window.asReadOnlyBuffer() : window);
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
