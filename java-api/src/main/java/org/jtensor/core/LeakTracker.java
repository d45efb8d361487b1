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
 * so the references of a thread that has ended stay reachable and its leaks are still found; once
 * that thread has ended, its list is dropped ({@link #pruneEnded}) and any reference still pending
 * moves to one shared list, so a thread-per-request server does not keep a list per request. A
 * daemon thread takes collected-but-unreleased storages off the reference queue, frees and reports
 * them; nothing a listener throws stops it or skips a release.
 *
 * <p>PARANOID's cost: each live storage keeps the stack trace of its creation (a Throwable, about
 * 1-2 KB with its frames); a released or reported storage drops it at once, leaving about 100
 * bytes until its list next compacts.
 */
public final class LeakTracker {
  private static final Logger LOG = Logger.getLogger("org.jtensor.leak");
  private static final AtomicLong LEAKS = new AtomicLong();
  private static volatile LeakLevel level = LeakLevel.parse(System.getProperty("jtensor.leakDetection"));
  private static volatile Consumer<String> listener;
  private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
  private static final ConcurrentLinkedQueue<Registry> ALL = new ConcurrentLinkedQueue<>();
  private static final ThreadLocal<Registry> MINE = ThreadLocal.withInitial(LeakTracker::newRegistry);

  static {
    Thread t = new Thread(LeakTracker::drain, "jtensor-leak-detector");
    t.setDaemon(true);
    t.start();
  }

  private LeakTracker() {}

  /** A storage's reference: released by its owner, or found unreachable by the GC. */
  static final class Track extends PhantomReference<Object> {
    final long handle;
    volatile long nbytes;  // changed by resize_, which no release or collection can overlap (it is exclusive, and holds the owner)
    final Object what;
    Throwable createdAt;  // PARANOID only; dropped once released or reported
    // A wrapped storage's owner release, run after the native free if the storage leaks; else null.
    // Dropped on release(): the registry keeps a released Track until it compacts, and the release
    // may hold the owner's buffer, which must be collectable once the storage is closed.
    Runnable onFree;
    volatile boolean done;
    private static final VarHandle DONE;

    static {
      try {
        DONE = MethodHandles.lookup().findVarHandle(Track.class, "done", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    Track(Object owner, long handle, long nbytes, Object what, Throwable createdAt, Runnable onFree) {
      super(owner, QUEUE);
      this.handle = handle;
      this.nbytes = nbytes;
      this.what = what;
      this.createdAt = createdAt;
      this.onFree = onFree;
    }

    /** The storage was resized: the collector counts its new bytes, and a leak report names them. */
    void resized(long newBytes) {
      long old = nbytes;
      nbytes = newBytes;
      LeakCollector.resized(newBytes - old);
    }

    /**
     * The owner released the storage: nothing is left to free or report. clear() keeps the
     * reference from ever being enqueued; a collection's scan (collectAndDrain) reads a cleared
     * referent too, and must find the flag already set.
     */
    void release() {
      DONE.getAndSet(this, true);  // a full fence: a scan that sees the clear() below sees this too
      clear();
      LeakCollector.released(nbytes);
      onFree = null;  // no race with the detector: a cleared reference is never enqueued
      createdAt = null;
    }
  }

  /**
   * One thread's references; only that thread adds and compacts, anyone may mark one done or read
   * them (a collection's scan). Compaction copies into a new array, so a reader holding the old one
   * sees entries that stay put; the volatile size publishes each entry before it counts. After the
   * thread has ended, pruneEnded (under the registries' lock) drops the registry.
   */
  private static final class Registry {
    private volatile Track[] tracks = new Track[64];
    private volatile int size;
    private final Thread owner = Thread.currentThread();  // until pruned: its end orders its adds before the pruning's reads

    void add(Track t) {  // only the owning thread calls this: no lock
      Track[] a = tracks;
      int n = size;
      if (n == a.length) {
        int live = 0;
        for (Track x : a) if (!x.done) live++;
        Track[] b = new Track[Math.max(64, 2 * live + 2)];
        n = 0;
        for (Track x : a) if (!x.done) b[n++] = x;
        tracks = a = b;
      }
      a[n] = t;
      size = n + 1;
    }

    /** Each reference not yet done, to action; from any thread. */
    void forEachPending(Consumer<Track> action) {
      // The size first: a compaction only moves entries down, so whichever array is read next
      // holds every entry counted below it (the old one, or the new one written before it).
      int n = size;
      Track[] a = tracks;
      n = Math.min(n, a.length);
      for (int i = 0; i < n; i++) {
        Track t = a[i];
        if (t != null && !t.done) action.accept(t);
      }
    }

    boolean ended() {
      return !owner.isAlive();
    }
  }

  // Registries of ended threads are pruned when the count of registries has doubled since the
  // last pruning: amortized O(1) per new thread. Pending references of ended threads move here.
  private static final Object PRUNING = new Object();
  private static final List<Track> ORPHANS = new ArrayList<>();  // guarded by PRUNING
  private static int registries, pruneAt = 64;  // guarded by PRUNING

  private static Registry newRegistry() {
    Registry r = new Registry();
    synchronized (PRUNING) {
      if (++registries >= pruneAt) pruneEnded();
      ALL.add(r);
    }
    return r;
  }

  /** Drops the registries of threads that have ended, keeping their pending references in ORPHANS. */
  private static void pruneEnded() {
    for (java.util.Iterator<Registry> it = ALL.iterator(); it.hasNext(); ) {
      Registry r = it.next();
      if (!r.ended()) continue;
      r.forEachPending(ORPHANS::add);
      it.remove();
      registries--;
    }
    ORPHANS.removeIf(x -> x.done);
    pruneAt = Math.max(64, 2 * registries);
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
  static Track track(Object owner, long handle, long nbytes, Object what, Runnable onFree) {
    LeakLevel l = level;
    if (l == LeakLevel.DISABLED) return null;
    Track t = new Track(owner, handle, nbytes, what, l == LeakLevel.PARANOID ? new Throwable("created here") : null, onFree);
    MINE.get().add(t);
    LeakCollector.allocated(nbytes);
    return t;
  }

  /**
   * After a collection the caller asked for (LeakCollector): frees every storage it found
   * unreachable, on this thread, and returns how many.
   *
   * <p>The collector clears a phantom reference's referent when it finds the owner unreachable,
   * but the JDK's Reference Handler queues the references one by one afterwards, at its own pace:
   * waiting on the queue (a sentinel, then until it stays empty a while) missed 191 storages on a
   * loaded 2-core CI machine, freed only after the test had counted its bytes. So the registries are
   * scanned instead: every reference not done whose referent is cleared is taken now. The queue still
   * delivers each of them later; take() lets only one of its callers free it.
   */
  static long collectAndDrain() {
    System.gc();  // none with -XX:+DisableExplicitGC: then what earlier collections found
    long[] freed = {0};
    Consumer<Track> takeCleared = t -> {
      if (t.refersTo(null) && take(t)) freed[0]++;
    };
    for (Registry r : ALL) r.forEachPending(takeCleared);
    List<Track> orphans;
    synchronized (PRUNING) {
      orphans = new ArrayList<>(ORPHANS);
    }
    orphans.forEach(takeCleared);  // outside the lock: a free's report runs the listener, which may start threads
    while (RECOVERING.get() > 0) Thread.onSpinWait();  // what the detector's thread took meanwhile
    return freed[0];
  }

  private static final java.util.concurrent.atomic.AtomicInteger RECOVERING = new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Frees and reports a collected storage unless another thread already did (the queue's thread and
   * a collection's scan can both reach one); whether this one did. RECOVERING counts the taker
   * before it claims the reference, so a scan that lost the claim waits for the free it lost to;
   * it counts the free alone, not the report after it, which runs user code (the listener, a wrapped
   * storage's owner release) that may itself collect, and must not wait for itself.
   */
  private static boolean take(Track t) {
    RECOVERING.incrementAndGet();
    try {
      if (!Track.DONE.compareAndSet(t, false, true)) return false;
      free(t);
    } finally {
      RECOVERING.decrementAndGet();
    }
    reportAndRelease(t);
    return true;
  }

  private static void drain() {
    for (;;) {
      Track t;
      try {
        t = (Track) QUEUE.remove(LeakReports.WINDOW_MILLIS);
      } catch (InterruptedException e) {
        continue;  // the detector is the process's: an interrupt (a thread-pool shutdown, say) must not end it
      }
      if (t != null) take(t);
      LeakReports.flushIfDue();
    }
  }

  /** Gives a leaked storage's bytes back and counts the leak: what a collection waits for. */
  private static void free(Track t) {
    try {
      NativeMemory.release(t.handle);
      LeakCollector.released(t.nbytes);
    } catch (Throwable e) {  // whatever one leak does, the next is still freed
      LOG.log(java.util.logging.Level.WARNING, "freeing a leaked storage failed; leak recovery goes on", e);
    } finally {
      LEAKS.incrementAndGet();
    }
  }

  /** Reports a freed leak, then runs its owner's release: each whatever the one before threw. */
  private static void reportAndRelease(Track t) {
    try {
      LeakReports.leaked(t.what, t.nbytes, t.createdAt);
      Consumer<String> l = listener;
      if (l != null) l.accept(LeakReports.message(t.what, t.createdAt));
    } catch (Throwable e) {  // a listener that throws (a test's fail()) must not stop recovery
      LOG.log(java.util.logging.Level.WARNING, "the leak listener threw; leak recovery goes on", e);
    } finally {
      t.createdAt = null;
      Runnable release = t.onFree;
      // Dropped, as release() does: the registry keeps t until it compacts (an ended thread's until
      // pruned), and the release may hold the owner's buffer, an asByteBuffer() one among them.
      t.onFree = null;
      if (release != null) StorageImpl.runOwnerRelease(release, t.what);
    }
  }
}
