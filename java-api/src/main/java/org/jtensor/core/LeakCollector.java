package org.jtensor.core;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The safety net for code that leaves tensors to the garbage collector.
 *
 * <p>Note [Collecting for unscoped code] A loop that never closes its tensors leaves each step's
 * storages reachable only from garbage Java objects of a few dozen bytes each. The Java heap barely
 * grows, so the collector does not run, the leak detector never sees them, and native memory
 * grows without bound (issue 21: 1.3 MiB a step, 2 GiB after 2,000 steps, and out of memory under
 * a limit although nearly every byte belonged to unreachable handles). So the bytes of storages
 * the leak detector tracks are counted here, and:
 * <ul>
 *   <li>when they pass a threshold, the allocating thread runs {@code System.gc()} and frees what the
 *       collection found unreachable (the leak detector's queue) before it goes on. The threshold
 *       is half again the live bytes' low-water mark since the last collection, and at least
 *       {@code jtensor.collectOnGrowthMiB} (16 by default) above it: a leaking loop's live bytes
 *       only climb from what it really holds. A collection that freed less than a quarter of the
 *       growth found no leak to speak of (a program whose live set grew, or whose steps peak high):
 *       the threshold then stays at least twice the live bytes that triggered it, until a
 *       collection finds leaks again (or {@code LeakDetector.collect()} starts afresh), so a program
 *       that closes its tensors pays a collection only when its live bytes reach twice their
 *       former height (a loop that allocates 32 MiB and frees it all each round: one collection);</li>
 *   <li>when an allocation fails, the allocator collects, frees what was found and retries once
 *       before it throws (as java.nio does for direct buffers).</li>
 * </ul>
 * Deterministic release stays the rule: a program that closes everything never reaches the
 * threshold twice at one size. {@code -Djtensor.collectOnGrowth=false} (or
 * {@code LeakDetector.setCollectOnGrowth(false)}) turns the first off; the leak detector's level
 * DISABLED turns both off (nothing is tracked, so nothing could be freed).
 */
public final class LeakCollector {
  private static final long FLOOR = Math.max(1, Long.getLong("jtensor.collectOnGrowthMiB", 16)) << 20;
  // -Djtensor.collectOnGrowth=false: no counting at all (a constant the JIT folds), so the allocation
  // path pays nothing for it; setOnGrowth turns the collections on and off where counting runs.
  private static final boolean COUNTING = !"false".equalsIgnoreCase(System.getProperty("jtensor.collectOnGrowth"));
  private static volatile boolean onGrowth = COUNTING;
  private static final AtomicLong LIVE = new AtomicLong();  // bytes of tracked storages not yet released or freed
  private static volatile long threshold = FLOOR;
  // The live bytes' low-water mark since the last collection, and the floor a useless collection
  // set (0: none). Updated without a lock from any thread: a heuristic's inputs, not accounting.
  private static volatile long low, uselessFloor;
  private static final ReentrantLock COLLECTING = new ReentrantLock();
  private static final AtomicLong COLLECTIONS = new AtomicLong(), NANOS = new AtomicLong();

  private LeakCollector() {}

  /** A tracked storage of nbytes was made; may collect first (never while another thread collects). */
  static void allocated(long nbytes) {
    if (!COUNTING) return;
    long live = LIVE.addAndGet(nbytes);
    // Not from inside a collection: a wrapped storage's release, run while draining, may allocate.
    if (live > threshold && onGrowth && !COLLECTING.isHeldByCurrentThread() && COLLECTING.tryLock()) {
      try {
        if (LIVE.get() > threshold) collectLocked(true);
      } finally {
        COLLECTING.unlock();
      }
    }
  }

  /** A tracked storage of nbytes was released by its owner or freed by the leak detector. */
  static void released(long nbytes) {
    if (!COUNTING) return;
    long live = LIVE.addAndGet(-nbytes);
    if (live < low) lowered(live);
  }

  /**
   * A tracked storage was resized by delta bytes. Counted without collecting: a resize_ runs with its
   * storage in exclusive use, and a collection could run a wrapped storage's release under it.
   */
  static void resized(long delta) {
    if (!COUNTING) return;
    long live = LIVE.addAndGet(delta);
    if (live < low) lowered(live);
  }

  private static void lowered(long live) {
    low = live;
    retune();
  }

  private static void retune() {
    long l = low;
    threshold = Math.max(uselessFloor, l + Math.max(FLOOR, l / 2));
  }

  /**
   * After an allocation failed: collects and frees what was found unreachable (waiting for any
   * collection under way), so the caller's retry sees those bytes back. Whether anything was freed.
   */
  static boolean collectForRetry() {
    if (LeakTracker.level() == org.jtensor.memory.LeakLevel.DISABLED) return false;
    COLLECTING.lock();
    try {
      return collectLocked(false) > 0;
    } finally {
      COLLECTING.unlock();
    }
  }

  /** Collects now and frees every tracked storage found unreachable; how many. The growth heuristic starts afresh. */
  public static long collect() {
    COLLECTING.lock();
    try {
      uselessFloor = 0;
      return collectLocked(false);
    } finally {
      COLLECTING.unlock();
    }
  }

  private static long collectLocked(boolean growth) {
    long start = System.nanoTime(), before = LIVE.get();
    long freed = LeakTracker.collectAndDrain();
    long after = LIVE.get();
    // Under a quarter of the growth since the low-water mark found: no leak worth a collection at
    // this size. The next waits for twice the live bytes that triggered this one.
    if (growth) uselessFloor = before - after < (before - Math.min(before, low)) / 4 ? 2 * before : 0;
    low = after;
    retune();
    COLLECTIONS.incrementAndGet();
    NANOS.addAndGet(System.nanoTime() - start);
    return freed;
  }

  /** Turns the collections on growth on or off; on has no effect where -Djtensor.collectOnGrowth=false stopped the counting. */
  public static void setOnGrowth(boolean on) {
    onGrowth = on && COUNTING;
  }

  public static boolean onGrowth() {
    return onGrowth;
  }

  /** Collections run by this safety net (on growth, on a failed allocation, or asked for). */
  public static long collections() {
    return COLLECTIONS.get();
  }

  /** Time spent in them, in nanoseconds. */
  public static long collectionNanos() {
    return NANOS.get();
  }
}
