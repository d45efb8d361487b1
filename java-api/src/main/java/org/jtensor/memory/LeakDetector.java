package org.jtensor.memory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The safety net behind close(), as Netty's ResourceLeakDetector: a storage that becomes
 * unreachable while still holding native memory is freed and reported (see {@link LeakTracker}).
 * Level from the system property {@code jtensor.leakDetection}: DISABLED (no tracking: a leak
 * stays leaked), SIMPLE (the default: free and report), PARANOID (also record where it was made).
 * Nothing here ever calls System.gc() or polls memory on the allocation path.
 */
public final class LeakDetector {
  public enum Level { DISABLED, SIMPLE, PARANOID }

  private static final Logger LOG = Logger.getLogger("org.jtensor.leak");
  private static final AtomicLong LEAKS = new AtomicLong();
  private static volatile Level level = parseLevel(System.getProperty("jtensor.leakDetection"));
  private static volatile Consumer<String> listener;

  private LeakDetector() {}

  public static Level level() {
    return level;
  }

  public static void setLevel(Level newLevel) {
    level = newLevel;
  }

  /** Receives each leak report (besides the log); null removes it. For tests and monitoring. */
  public static void setListener(Consumer<String> newListener) {
    listener = newListener;
  }

  /** How many leaks were reported since the JVM started. */
  public static long leaksReported() {
    return LEAKS.get();
  }

  static Level parseLevel(String s) {
    if (s == null || s.isEmpty()) return Level.SIMPLE;
    try {
      return Level.valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("jtensor.leakDetection must be DISABLED, SIMPLE or PARANOID, got '" + s + "'");
    }
  }

  /** Tracks a native storage owned by owner; null when detection is disabled. */
  static LeakTracker.Track track(Object owner, long handle, Object what) {
    if (level == Level.DISABLED) return null;
    Throwable createdAt = level == Level.PARANOID ? new Throwable("created here") : null;
    return LeakTracker.track(owner, handle, what, createdAt);
  }

  static void report(String what, Throwable createdAt) {
    LEAKS.incrementAndGet();
    String msg = "LEAK: " + what + " was garbage-collected without close(); jtensor freed it. "
        + (createdAt == null ? "Run with -Djtensor.leakDetection=PARANOID to see where it was created."
                             : "It was created at:");
    LOG.log(java.util.logging.Level.WARNING, msg, createdAt);
    Consumer<String> l = listener;
    if (l != null) l.accept(msg);
  }
}
