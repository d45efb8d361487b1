package org.jtensor.memory;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The safety net behind close(), as Netty's ResourceLeakDetector: a storage that becomes
 * unreachable while still holding native memory is freed by a {@link Cleaner} and reported.
 * Level from the system property {@code jtensor.leakDetection}: DISABLED (no tracking: a leak
 * stays leaked), SIMPLE (the default: free and report), PARANOID (also record where it was made).
 * Nothing here ever calls System.gc() or polls memory on the allocation path.
 */
public final class LeakDetector {
  public enum Level { DISABLED, SIMPLE, PARANOID }

  private static final Logger LOG = Logger.getLogger("org.jtensor.leak");
  private static final Cleaner CLEANER = Cleaner.create();
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

  /** What the Cleaner runs: frees the native reference unless the owner already released it. */
  static final class Guard implements Runnable {
    private final long handle;
    private final Object what;  // its toString() describes the owner; built only for a report
    private final Throwable createdAt;
    private volatile boolean released;

    Guard(long handle, Object what, Throwable createdAt) {
      this.handle = handle;
      this.what = what;
      this.createdAt = createdAt;
    }

    void markReleased() {
      released = true;
    }

    @Override
    public void run() {
      if (released) return;
      NativeMemory.release(handle);
      report(String.valueOf(what), createdAt);
    }
  }

  /** Returns a cleanable to run on explicit release, or null when detection is disabled. */
  static Cleaner.Cleanable track(Object owner, Guard guard) {
    return level == Level.DISABLED ? null : CLEANER.register(owner, guard);
  }

  static Throwable creationSite() {
    return level == Level.PARANOID ? new Throwable("created here") : null;
  }

  private static void report(String what, Throwable createdAt) {
    LEAKS.incrementAndGet();
    String msg = "LEAK: " + what + " was garbage-collected without close(); the Cleaner freed it. "
        + (createdAt == null ? "Run with -Djtensor.leakDetection=PARANOID to see where it was created."
                             : "It was created at:");
    LOG.log(java.util.logging.Level.WARNING, msg, createdAt);
    Consumer<String> l = listener;
    if (l != null) l.accept(msg);
  }
}
