package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Storage.wrap's release under races: many threads closing views (and the same handle twice)
 * at once, and a close while ops run on the bytes on another thread. The release runs exactly
 * once, and never while a kernel can still read the bytes: it poisons them before freeing, so a
 * read after it would show as a wrong sum.
 */
class WrappedReleaseRaceTest {
  private static long wrappedBytes() {
    return Memory.memoryStats(Device.CPU).get("wrapped_bytes.current");
  }

  @Test
  void manyThreadsClosingViewsReleaseExactlyOnce() throws Exception {
    long before = wrappedBytes();
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 100; round++) {
        BytePointer memory = new BytePointer(256);
        AtomicInteger released = new AtomicInteger();
        Storage s = Storage.wrap(memory.address(), 256, () -> {
          released.incrementAndGet();
          memory.deallocate();
        });
        List<Tensor> views = new ArrayList<>();
        try (Tensor base = Tensor.empty(new long[] {0}, DType.INT32).set_(s, 0, new long[] {64}, new long[] {1})) {
          for (int i = 0; i < threads; i++) views.add(base.narrow(0, 8 * i, 8));
        }
        Storage extra = s.share();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
          Tensor mine = views.get(i), neighbours = views.get((i + 1) % threads);
          done.add(pool.submit(() -> {
            go.await();
            mine.close();
            neighbours.close();  // the same handle closed from two threads: once per handle
            if (mine == views.get(0)) extra.close();
            return null;
          }));
        }
        s.close();
        go.countDown();
        for (Future<?> f : done) f.get(20, TimeUnit.SECONDS);
        assertEquals(1, released.get(), "round " + round);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(before, wrappedBytes());
  }

  @Test
  void aCloseWhileOpsRunNeverReleasesUnderAKernel() throws Exception {
    int n = 1 << 18;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 20; round++) {
        FloatPointer memory = new FloatPointer(n);
        for (int i = 0; i < n; i++) memory.put(i, 1f);
        AtomicInteger released = new AtomicInteger();
        Storage s = Storage.wrap(memory.address(), 4L * n, () -> {
          for (int i = 0; i < n; i++) memory.put(i, Float.NaN);  // poison: a kernel reading now sums NaN
          released.incrementAndGet();
          memory.deallocate();
        });
        Tensor t = Tensor.empty(new long[] {0}).set_(s, 0, new long[] {n}, new long[] {1});
        s.close();
        Tensor view = t.view(512, 512);
        CountDownLatch running = new CountDownLatch(2);
        List<Future<Integer>> workers = new ArrayList<>();
        for (Tensor mine : List.of(t, view)) {
          workers.add(pool.submit(() -> {
            int sums = 0;
            running.countDown();
            for (;;) {
              try (Tensor sum = mine.sum()) {
                assertEquals((double) n, sum.item(), "a sum read released bytes");
                sums++;
              } catch (IllegalStateException closed) {
                return sums;  // the handle was closed: the only other outcome allowed
              }
            }
          }));
        }
        assertTrue(running.await(20, TimeUnit.SECONDS));
        Thread.sleep(2);
        t.close();
        view.close();
        for (Future<Integer> w : workers) w.get(20, TimeUnit.SECONDS);
        assertEquals(1, released.get(), "round " + round);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailingReleaseIsLoggedNotThrownIntoWhoeverDroppedTheLastReference() throws Exception {
    long before = wrappedBytes();
    AtomicInteger released = new AtomicInteger();
    BytePointer memory = new BytePointer(64);
    Storage s = Storage.wrap(memory.address(), 64, () -> {
      released.incrementAndGet();
      memory.deallocate();
      throw new IllegalStateException("owner's release failed");
    });
    Tensor t = Tensor.empty(new long[] {0}).set_(s, 0, new long[] {16}, new long[] {1});
    s.close();
    t.close();  // the last reference: the release's failure must not escape a close()
    assertEquals(1, released.get());
    assertEquals(before, wrappedBytes());

    // The last reference dropped by a kernel's hold on another thread: its other operands are still unheld.
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Tensor other = Tensor.ones(1 << 16)) {
      for (int round = 0; round < 20; round++) {
        FloatPointer bytes = new FloatPointer(1 << 16);
        Storage w = Storage.wrap(bytes.address(), 4L << 16, () -> {
          bytes.deallocate();
          throw new IllegalStateException("owner's release failed");
        });
        Tensor x = Tensor.empty(new long[] {0}).set_(w, 0, new long[] {1 << 16}, new long[] {1}).fill_(2.0);
        w.close();
        CountDownLatch running = new CountDownLatch(1);
        Future<?> adds = pool.submit(() -> {
          running.countDown();
          for (;;) {
            try (Tensor sum = x.add(other)) {
              assertEquals(3.0, sum.getDouble(5));
            } catch (IllegalStateException closed) {
              assertTrue(closed.getMessage().startsWith("add(): "), closed.getMessage());
              return null;
            }
          }
        });
        assertTrue(running.await(20, TimeUnit.SECONDS));
        x.close();
        adds.get(20, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(before, wrappedBytes());
  }

  @Test
  void addressesNoProcessCanOwnAreRefused() {
    Runnable none = () -> {};
    for (long[] bad : new long[][] {{-8, 8}, {Long.MIN_VALUE, 0}, {Long.MAX_VALUE - 4, 8}, {1L << 40, Long.MAX_VALUE}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Storage.wrap(bad[0], bad[1], none));
      assertTrue(e.getMessage().startsWith("wrap(): "), e.getMessage());
    }
  }
}
