package org.jtensor;

import java.util.function.IntConsumer;

/** Runs a test body under 1, 2 and 3 kernel threads (one thread, an even split, an odd one), then restores the count. */
final class ThreadCounts {
  private ThreadCounts() {}

  static void each(IntConsumer body) {
    int threads = Threads.getNumThreads();
    try {
      for (int t : new int[] {1, 2, 3}) {
        Threads.setNumThreads(t);
        body.accept(t);
      }
    } finally {
      Threads.setNumThreads(threads);
    }
  }
}
