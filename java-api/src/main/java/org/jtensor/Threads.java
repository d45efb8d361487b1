package org.jtensor;

import org.jtensor.bindings.JtNative;
import org.jtensor.core.KernelStatus;

/** The native kernels' thread pool, as torch.set_num_threads / get_num_threads. */
public final class Threads {
  /** The most threads setNumThreads takes: far past any machine's cores, short of exhausting a system's threads. */
  public static final int MAX_THREADS = 4096;

  private Threads() {}

  /**
   * Resizes the pool to n threads (the caller's included). Where the system refuses a thread (a
   * container's limit on processes, or on memory), an IllegalStateException says so and the pool
   * keeps the size it had.
   */
  public static void setNumThreads(int n) {
    if (n < 1 || n > MAX_THREADS) {
      throw new IllegalArgumentException("setNumThreads(): expected a number of threads from 1 to " + MAX_THREADS + ", got " + n);
    }
    int before = getNumThreads();
    KernelStatus st = KernelStatus.of(JtNative.jt_set_num_threads(n));
    if (st == KernelStatus.OUT_OF_MEMORY) {
      throw new IllegalStateException("setNumThreads(): the system refused to start " + n + " threads (a limit on threads or "
          + "memory); the pool keeps " + getNumThreads() + (getNumThreads() == before ? "" : " (it had " + before + ")"));
    }
    if (st != KernelStatus.OK) throw new IllegalStateException("setNumThreads(" + n + "): the native pool answered " + st);
  }

  public static int getNumThreads() {
    return JtNative.jt_get_num_threads();
  }
}
