package org.jtensor;

import org.jtensor.bindings.JtNative;

/** The native kernels' thread pool, as torch.set_num_threads / get_num_threads. */
public final class Threads {
  private Threads() {}

  public static void setNumThreads(int n) {
    if (n < 1) throw new IllegalArgumentException("setNumThreads(): expected a positive number of threads, got " + n);
    JtNative.jt_set_num_threads(n);
  }

  public static int getNumThreads() {
    return JtNative.jt_get_num_threads();
  }
}
