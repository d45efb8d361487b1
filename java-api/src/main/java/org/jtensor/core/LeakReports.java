package org.jtensor.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the leak detector logs. The first leak after a quiet spell is logged at once, in full; the
 * ones after it are counted and logged as one summary every {@link #WINDOW_MILLIS} (how many, their
 * bytes, and under PARANOID the code that made most of them), so a loop that leaks every step
 * gets a report it can act on instead of thousands of lines. Each message names the fix.
 */
final class LeakReports {
  static final long WINDOW_MILLIS = 10_000;
  private static final Logger LOG = Logger.getLogger("org.jtensor.leak");
  static final String FIX = "Open a TensorScope around each step (try (TensorScope s = TensorScope.open()) { ... }, "
      + "returning s.keep(t) for what must outlive it), or close() each tensor (try-with-resources).";

  // The current window; guarded by the class.
  private static long windowEnd, count, bytes;
  private static final Map<String, Long> SITES = new HashMap<>();

  private LeakReports() {}

  /** One leak's message: what it was, the fix, and where it was made (PARANOID) or how to find out. */
  static String message(Object what, Throwable createdAt) {
    return "LEAK: " + what + " was garbage-collected without close(); jtensor freed it. " + FIX
        + (createdAt == null ? " Run with -Djtensor.leakDetection=PARANOID to see where it was created." : " It was created at:");
  }

  static synchronized void leaked(Object what, long nbytes, Throwable createdAt) {
    long now = System.currentTimeMillis();
    if (now >= windowEnd && count == 0) {  // the first of a series: at once
      LOG.log(Level.WARNING, message(what, createdAt) + " Further leaks are summed up every " + WINDOW_MILLIS / 1000
          + " s.", createdAt);
      windowEnd = now + WINDOW_MILLIS;
      return;
    }
    count++;
    bytes += nbytes;
    if (createdAt != null) SITES.merge(site(createdAt), 1L, Long::sum);
    if (now >= windowEnd) flush(now);
  }

  /** Logs the window's summary once the window has ended (the detector's thread calls it when idle). */
  static synchronized void flushIfDue() {
    long now = System.currentTimeMillis();
    if (count > 0 && now >= windowEnd) flush(now);
  }

  private static void flush(long now) {
    StringBuilder m = new StringBuilder("LEAK: ").append(String.format("%,d", count)).append(count == 1 ? " more storage (" : " more storages (")
        .append(ByteCounts.format(bytes)).append(") were garbage-collected without close() in the last ")
        .append(WINDOW_MILLIS / 1000).append(" s; jtensor freed them. ");
    if (!SITES.isEmpty()) {
      List<Map.Entry<String, Long>> top = new ArrayList<>(SITES.entrySet());
      top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
      m.append("Most were created at: ");
      for (int i = 0; i < Math.min(3, top.size()); i++) {
        m.append(i == 0 ? "" : "; ").append(top.get(i).getKey()).append(" (").append(String.format("%,d", top.get(i).getValue())).append(')');
      }
      m.append(". ");
    }
    m.append(FIX);
    if (SITES.isEmpty()) m.append(" Run with -Djtensor.leakDetection=PARANOID to see where they were created.");
    LOG.warning(m.toString());
    count = 0;
    bytes = 0;
    SITES.clear();
    windowEnd = now + WINDOW_MILLIS;
  }

  /** The first frame outside jtensor and the JDK: the user's line that made the tensor. */
  private static String site(Throwable createdAt) {
    for (StackTraceElement e : createdAt.getStackTrace()) {
      String c = e.getClassName();
      if (!c.startsWith("org.jtensor.") && !c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) return e.toString();
    }
    StackTraceElement[] all = createdAt.getStackTrace();
    return all.length == 0 ? "an unknown place" : all[all.length - 1].toString();
  }
}
