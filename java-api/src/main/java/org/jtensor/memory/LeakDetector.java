package org.jtensor.memory;

import java.util.function.Consumer;
import org.jtensor.core.LeakTracker;

/**
 * The safety net behind close(), as Netty's ResourceLeakDetector: a storage that becomes
 * unreachable while still holding native memory is freed and reported (on the
 * {@code org.jtensor.leak} logger and to the listener). The level starts from the system property
 * {@code jtensor.leakDetection} (see {@link LeakLevel}). Nothing here ever calls System.gc() or
 * polls memory on the allocation path.
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
}
