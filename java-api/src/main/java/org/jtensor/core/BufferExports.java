package org.jtensor.core;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The ByteBuffers that asByteBuffer() gave out, each holding a reference to its storage until the
 * collector finds it garbage; then this class's thread gives the reference back.
 *
 * <p>Note [Waiting for garbage buffers] An allocation that finds memory out collects, and the
 * storages of buffers found garbage come back on the release thread, some time later. A fixed wait
 * (the JDK's for its own direct buffers: nine sleeps, about half a second) ran out on a loaded
 * 2-core CI machine with fifteen 4 MiB storages on their way back (BufferLifetimeTest). Here the
 * waiting thread knows what is on the way: a collection clears the phantom reference of every
 * buffer it found garbage before System.gc() returns, so a cleared one still in {@link #LIVE} is a
 * release to come. The allocation waits until none is left to come, then retries once (a retry
 * after each release counted one num_ooms each), and gives up at once when the collection found
 * none (buffers still reachable wait for nothing). A wrapped storage's release gives the allocator
 * nothing and runs its owner's code, which may block: it is not waited for.
 */
public final class BufferExports {
  private static final Logger LOG = Logger.getLogger("org.jtensor.buffer");
  private static final ReferenceQueue<ByteBuffer> QUEUE = new ReferenceQueue<>();
  private static final Set<Export> LIVE = ConcurrentHashMap.newKeySet();  // also keeps each Export reachable
  private static final Object RELEASED = new Object();  // notified after each release
  private static volatile long releases;  // written by the release thread alone, under RELEASED
  // Only against a release thread that cannot run at all; a release itself is a native free.
  private static final long GIVE_UP_NANOS = 30_000_000_000L;

  private static final class Export extends PhantomReference<ByteBuffer> {
    final StorageImpl storage;

    Export(ByteBuffer buffer, StorageImpl storage) {
      super(buffer, QUEUE);
      this.storage = storage;
    }
  }

  private static volatile Thread releaser;

  // Started by the first export, not by the first allocation (which reads the count): a failed
  // start (a process at its thread limit) fails that asByteBuffer(), never every CPU allocation.
  private static final class Releaser {
    static {
      Thread t = new Thread(BufferExports::releaseForever, "jtensor-buffer-release");
      t.setDaemon(true);
      releaser = t;
      t.start();
    }

    static void ensureStarted() {}
  }

  private BufferExports() {}

  /**
   * Gives buffer (a root: its slices and duplicates keep it reachable) a reference to s and an
   * export, both given back once the buffer is garbage. The caller holds s, so no resize_ runs
   * between its checks and the export.
   */
  public static void register(ByteBuffer buffer, StorageImpl s) {
    Releaser.ensureStarted();
    s.retain();
    s.export();
    LIVE.add(new Export(buffer, s));
  }

  /** Whether any buffer from asByteBuffer() may still hold a storage. */
  static boolean any() {
    return !LIVE.isEmpty();
  }

  /** How many releases have run: read before an allocation, passed to {@link #awaitReleasesAfter}. */
  static long releases() {
    return releases;  // a plain load on x86: every CPU allocation reads it
  }

  /**
   * After a collection: waits until no buffer it found garbage is still on its way back, then says
   * whether any release came after the count seen (the caller then retries once: a retry after
   * each release counted one num_ooms each). No wait on the release thread itself (a wrapped
   * storage's release that allocates would wait for its own work), nor past an interrupt, which it keeps.
   */
  static boolean awaitReleasesAfter(long seen) {
    if (Thread.currentThread() == releaser) return releases != seen;
    long deadline = System.nanoTime() + GIVE_UP_NANOS;
    synchronized (RELEASED) {
      for (long left; anyOnTheWay() && (left = deadline - System.nanoTime()) > 0; ) {
        try {
          RELEASED.wait(Math.max(1, Math.min(left / 1_000_000, 50)));  // also looks again for references cleared meanwhile
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return releases != seen;
    }
  }

  private static boolean anyOnTheWay() {
    // Wrapped: the bytes are the owner's, and the release runs the owner's code, which may block.
    for (Export e : LIVE) if (e.refersTo(null) && !e.storage.isWrapped()) return true;
    return false;
  }

  private static void releaseForever() {
    for (;;) {
      try {
        releaseOne((Export) QUEUE.remove());
      } catch (InterruptedException ignored) {
        // a daemon thread: it ends with the JVM
      } catch (Throwable t) {
        // The report of a failed release failed too (a log handler or System.err that throws): that
        // ended this thread once, and no buffer's storage came back after it.
      }
    }
  }

  private static void releaseOne(Export e) {
    try {
      e.storage.release();
    } catch (Throwable t) {  // as a JDK Cleaner with a failing action: the thread goes on for the others
      LOG.log(Level.WARNING, "giving back a garbage ByteBuffer's storage failed; the others still come back", t);
    } finally {
      e.storage.unexport();
      synchronized (RELEASED) {  // counted and gone at once: a waiter sees it on its way or counted
        releases++;
        LIVE.remove(e);
        RELEASED.notifyAll();
      }
    }
  }
}
