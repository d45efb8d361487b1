package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Threads.setNumThreads: its bounds refused by name, a size it takes kept (a size the system refuses: native thread_pool_test). */
class ThreadsTest extends ScopedTest {
  @Test
  void sizesOutsideOneToTheMaximumAreRefusedAndChangeNothing() {
    int before = Threads.getNumThreads();
    try {
      for (int n : new int[] {0, -1, Threads.MAX_THREADS + 1, Integer.MAX_VALUE}) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threads.setNumThreads(n));
        assertEquals("setNumThreads(): expected a number of threads from 1 to 4096, got " + n, e.getMessage());
        assertEquals(before, Threads.getNumThreads());
      }
      Threads.setNumThreads(3);
      assertEquals(3, Threads.getNumThreads());
      try (Tensor x = Tensor.arange(0, 1 << 20, 1, DType.FLOAT64); Tensor s = x.sum()) {  // the three threads sum it
        assertEquals((double) (1L << 20) * ((1L << 20) - 1) / 2, s.item(), 0);
      }
    } finally {
      Threads.setNumThreads(before);
    }
  }
}
