package org.jtensor.core;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * release to come. The allocation retries after each release and gives up once none is left to
 * come, at once when the collection found none (buffers still reachable wait for nothing).
 */
public final class BufferExports {
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

  static {
    Thread t = new Thread(BufferExports::releaseForever, "jtensor-buffer-release");
    t.setDaemon(true);
    t.start();
  }

  private BufferExports() {}

  /**
   * Gives buffer (a root: its slices and duplicates keep it reachable) a reference to s and an
   * export, both given back once the buffer is garbage. The caller holds s, so no resize_ runs
   * between its checks and the export.
   */
  public static void register(ByteBuffer buffer, StorageImpl s) {
    s.retain();
    s.export();
    LIVE.add(new Export(buffer, s));
  }

  /** Whether any buffer from asByteBuffer() may still hold a storage. */
  static boolean any() {
    return !LIVE.isEmpty();
  }

  /** How many releases have run: read before an allocation, passed to {@link #awaitReleaseAfter}. */
  static long releases() {
    return releases;  // a plain load on x86: every CPU allocation reads it
  }

  /**
   * Waits for a release after the count seen (true), or returns false when none has come and none
   * is on the way: no buffer the collector found garbage is still waiting for its release.
   */
  static boolean awaitReleaseAfter(long seen) {
    long deadline = System.nanoTime() + GIVE_UP_NANOS;
    synchronized (RELEASED) {
      while (releases == seen) {
        // A release counts before it leaves LIVE: none counted and none cleared in LIVE means none to come.
        long left = deadline - System.nanoTime();
        if (!anyOnTheWay() || left <= 0) return false;
        try {
          RELEASED.wait(Math.max(1, Math.min(left / 1_000_000, 50)));  // also looks again for references cleared meanwhile
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  private static boolean anyOnTheWay() {
    for (Export e : LIVE) if (e.refersTo(null)) return true;
    return false;
  }

  private static void releaseForever() {
    while (true) {
      Export e;
      try {
        e = (Export) QUEUE.remove();
      } catch (InterruptedException ignored) {
        continue;  // a daemon thread: it ends with the JVM
      }
      try {
        e.storage.release();
      } catch (Throwable t) {  // as a JDK Cleaner with a failing action: the thread goes on for the others
        t.printStackTrace();
      } finally {
        e.storage.unexport();
        synchronized (RELEASED) {
          releases++;
          RELEASED.notifyAll();
        }
        LIVE.remove(e);  // after the count: a waiter never sees it gone and uncounted
      }
    }
  }
}
