package org.jtensor.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.jtensor.memory.LeakLevel;

/**
 * The leak detector's registry (the API is {@code memory.LeakDetector}): a phantom reference per
 * native storage, kept reachable until the storage is released or collected.
 *
 * <p>Note [Leak tracking without locks] A JDK Cleaner takes a lock to link each registration
 * and another to unlink it, on every allocation. Here each thread appends its references to its
 * own list with no lock; release only marks the reference done (from any thread), and the owning
 * thread drops done entries when its list has doubled. Every list is also held by a global queue,
 * so the references of a thread that has ended stay reachable and its leaks are still found. A
 * daemon thread takes collected-but-unreleased storages off the reference queue, frees and reports them.
 */
public final class LeakTracker {
  private static final Logger LOG = Logger.getLogger("org.jtensor.leak");
  private static final AtomicLong LEAKS = new AtomicLong();
  private static volatile LeakLevel level = LeakLevel.parse(System.getProperty("jtensor.leakDetection"));
  private static volatile Consumer<String> listener;
  private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
  private static final ConcurrentLinkedQueue<Registry> ALL = new ConcurrentLinkedQueue<>();
  private static final ThreadLocal<Registry> MINE = ThreadLocal.withInitial(() -> {
    Registry r = new Registry();
    ALL.add(r);
    return r;
  });

  static {
    Thread t = new Thread(LeakTracker::drain, "jtensor-leak-detector");
    t.setDaemon(true);
    t.start();
  }

  private LeakTracker() {}

  /** A storage's reference: released by its owner, or found unreachable by the GC. */
  static final class Track extends PhantomReference<Object> {
    final long handle;
    final Object what;
    final Throwable createdAt;
    final Runnable onFree;  // a wrapped storage's owner release, run after the native free; else null
    volatile boolean done;
    private static final VarHandle DONE;

    static {
      try {
        DONE = MethodHandles.lookup().findVarHandle(Track.class, "done", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    Track(Object owner, long handle, Object what, Throwable createdAt, Runnable onFree) {
      super(owner, QUEUE);
      this.handle = handle;
      this.what = what;
      this.createdAt = createdAt;
      this.onFree = onFree;
    }

    /**
     * The owner released the storage: nothing is left to free or report. A release store is
     * enough: clear() keeps the reference from ever being enqueued, and the owner thread's
     * compaction only needs to see the flag eventually.
     */
    void release() {
      DONE.setRelease(this, true);
      clear();
    }
  }

  /** One thread's references; only that thread adds and compacts, anyone may mark one done. */
  private static final class Registry {
    private final List<Track> tracks = new ArrayList<>();
    private int compactAt = 64;

    void add(Track t) {  // only the owning thread calls this: no lock
      if (tracks.size() >= compactAt) {
        tracks.removeIf(x -> x.done);
        compactAt = Math.max(64, 2 * tracks.size());
      }
      tracks.add(t);
    }
  }

  public static LeakLevel level() {
    return level;
  }

  public static void setLevel(LeakLevel newLevel) {
    level = newLevel;
  }

  public static void setListener(Consumer<String> newListener) {
    listener = newListener;
  }

  public static long leaksReported() {
    return LEAKS.get();
  }

  /**
   * Tracks a native storage owned by owner; null when detection is disabled. onFree (may be null)
   * runs after the native free if the storage leaks, as it does after a release by its owner.
   */
  static Track track(Object owner, long handle, Object what, Runnable onFree) {
    LeakLevel l = level;
    if (l == LeakLevel.DISABLED) return null;
    Track t = new Track(owner, handle, what, l == LeakLevel.PARANOID ? new Throwable("created here") : null, onFree);
    MINE.get().add(t);
    return t;
  }

  private static void drain() {
    for (;;) {
      try {
        Track t = (Track) QUEUE.remove();
        if (!t.done) {
          t.done = true;
          NativeMemory.release(t.handle);
          report(String.valueOf(t.what), t.createdAt);
          if (t.onFree != null) t.onFree.run();
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        // one report failing must not stop the detector
      }
    }
  }

  private static void report(String what, Throwable createdAt) {
    LEAKS.incrementAndGet();
    String msg = "LEAK: " + what + " was garbage-collected without close(); jtensor freed it. "
        + (createdAt == null ? "Run with -Djtensor.leakDetection=PARANOID to see where it was created."
                             : "It was created at:");
    LOG.log(java.util.logging.Level.WARNING, msg, createdAt);
    Consumer<String> l = listener;
    if (l != null) l.accept(msg);
  }
}
