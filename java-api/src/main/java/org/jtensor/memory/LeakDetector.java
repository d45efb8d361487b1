package org.jtensor.memory;

import java.util.function.Consumer;
import org.jtensor.core.LeakCollector;
import org.jtensor.core.LeakTracker;

/**
 * The safety net behind close(), as Netty's ResourceLeakDetector: a storage that becomes
 * unreachable while still holding native memory is freed and reported (on the
 * {@code org.jtensor.leak} logger and to the listener). The level starts from the system property
 * {@code jtensor.leakDetection} (see {@link LeakLevel}).
 *
 * <p>Code that never closes its tensors leaves them to the garbage collector, which a small Java
 * heap may not run for a long time while native memory grows. So the detector also counts the
 * bytes it tracks, and when they have grown half again over their low-water mark (by 16 MiB at
 * least, {@code -Djtensor.collectOnGrowthMiB}), or when an allocation fails, it runs
 * {@code System.gc()} and frees what was found before the allocation goes on (Note [Collecting for
 * unscoped code] in core/LeakCollector). Closing tensors, or a {@code TensorScope} per step, is
 * still the way: it frees at once, costs no collection, and reports nothing.
 */
public final class LeakDetector {
  private LeakDetector() {}

  public static LeakLevel level() {
    return LeakTracker.level();
  }

  /** Applies to storages allocated from now on. */
  public static void setLevel(LeakLevel newLevel) {
    if (newLevel == null) throw new IllegalArgumentException("setLevel(): expected a LeakLevel, got null");
    LeakTracker.setLevel(newLevel);
  }

  /** Receives each leak report (besides the log); null removes it. For tests and monitoring. */
  public static void setListener(Consumer<String> newListener) {
    LeakTracker.setListener(newListener);
  }

  /** How many leaks were reported since the JVM started. */
  public static long leaksReported() {
    return LeakTracker.leaksReported();
  }

  /**
   * Runs the garbage collector now and frees every tracked storage it found unreachable, before
   * returning how many (each is reported as a leak). The collection on growth then starts afresh
   * from the bytes still live.
   */
  public static long collect() {
    return LeakCollector.collect();
  }

  /** Turns the collection on growth on or off (from {@code -Djtensor.collectOnGrowth}, default on). */
  public static void setCollectOnGrowth(boolean on) {
    LeakCollector.setOnGrowth(on);
  }

  public static boolean collectsOnGrowth() {
    return LeakCollector.onGrowth();
  }

  /** Collections the detector has run (on growth, after a failed allocation, or by collect()), and their total time. */
  public static long collections() {
    return LeakCollector.collections();
  }

  public static long collectionNanos() {
    return LeakCollector.collectionNanos();
  }
}
