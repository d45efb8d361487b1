package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleSupplier;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Closing tensors while other threads compute with them (issue 7): every op either gives its
 * correct value or throws IllegalStateException, and no write lands in another tensor's bytes.
 */
class ConcurrencyTest {
  private static final int N = 64;
  private static final double V = 3.0;

  /**
   * Even rounds close before the summing thread may start (it must be refused); odd rounds close
   * once it has begun to sum, so the close meets a running sum (which must come out exact, or be
   * refused if the close won). Both outcomes are asserted to have happened: a run in which no close
   * ever met a sum would prove nothing.
   */
  @Test
  void theIssuesReproducerSumsExactlyOrRaisesIllegalState() throws InterruptedException {
    int sums = 0, refused = 0, refusedEarly = 0;
    for (int i = 0; i < 300; i++) {
      Tensor x = Tensor.ones(1 << 22);
      AtomicReference<Object> outcome = new AtomicReference<>();
      CountDownLatch go = new CountDownLatch(1), summing = new CountDownLatch(1);
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          outcome.set(e);
          return;
        }
        summing.countDown();
        outcome.set(sumOrError(x));
      });
      t.start();
      if (i % 2 == 0) {
        x.close();
        go.countDown();
      } else {
        go.countDown();
        summing.await();
        LockSupport.parkNanos(i / 2 % 5 * 100_000L);  // 0-0.4 ms into a sum of 4 Mi elements
        x.close();
      }
      Memory.emptyCache(Device.CPU);
      try (Tensor fresh = Tensor.full(new long[] {1 << 22}, 7.0, DType.FLOAT32)) {  // may take the freed bytes
        t.join();
        try (Tensor lo = fresh.amin(); Tensor hi = fresh.amax()) {
          assertEquals(7.0, lo.item(), "a freshly allocated tensor stays as written");
          assertEquals(7.0, hi.item(), "a freshly allocated tensor stays as written");
        }
      }
      Object o = outcome.get();
      if (o instanceof Double d) {
        assertEquals(4194304.0, d, "the sum is exact or refused");
        sums++;
      } else {
        assertEquals(IllegalStateException.class, o.getClass(), () -> "unexpected " + o);
        refused++;
        if (i % 2 == 0) refusedEarly++;
      }
    }
    assertEquals(300, sums + refused);
    assertEquals(150, refusedEarly, "a tensor closed before its sum starts is refused every time");
    assertTrue(sums > 0, "sums met by a close came out exact");
    System.out.println("reproducer: " + sums + " exact sums, " + refused + " IllegalStateException");
  }

  private static Object sumOrError(Tensor x) {
    try (Tensor s = x.sum()) {
      return s.item();
    } catch (Throwable e) {
      return e;
    }
  }

  @Test
  void closersRacingComputersGiveCorrectValuesOrIllegalStateAndNeverWriteIntoOthersBytes() throws Exception {
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    long deadline = System.nanoTime() + 10_000_000_000L;
    long[] counts = new long[2];  // results checked, IllegalStateExceptions
    for (int round = 0; System.nanoTime() < deadline && round < 2000; round++) {
      Random rnd = new Random(round);
      Tensor a = Tensor.full(new long[] {N, N}, V, DType.FLOAT32);
      Tensor v = a.t();
      Tensor dst = Tensor.zeros(N, N);
      List<Tensor> shared = List.of(a, v);
      List<Tensor> sentinels = Collections.synchronizedList(new ArrayList<>());
      int workers = 3;
      CountDownLatch go = new CountDownLatch(1), done = new CountDownLatch(workers + 1);
      for (int w = 0; w < workers; w++) {
        long seed = rnd.nextLong();
        new Thread(() -> {
          try {
            go.await();
            Random r = new Random(seed);
            for (int k = 0; k < 12; k++) compute(r, shared.get(r.nextInt(2)), dst, failures, counts);
          } catch (Throwable e) {
            failures.add("worker: " + e);
          } finally {
            done.countDown();
          }
        }).start();
      }
      long closerSeed = rnd.nextLong();
      new Thread(() -> {
        try {
          go.await();
          Random r = new Random(closerSeed);
          List<Tensor> order = new ArrayList<>(List.of(a, v, dst));
          Collections.shuffle(order, r);
          for (Tensor t : order) {
            if (r.nextBoolean()) Thread.yield();
            t.close();
            Memory.emptyCache(Device.CPU);
            sentinels.add(Tensor.full(new long[] {N, N}, 9.0, DType.FLOAT32));  // same size: reuses freed blocks
          }
        } catch (Throwable e) {
          failures.add("closer: " + e);
        } finally {
          done.countDown();
        }
      }).start();
      go.countDown();
      done.await();
      for (Tensor s : sentinels) {
        try (Tensor lo = s.amin(); Tensor hi = s.amax()) {
          if (lo.item() != 9.0 || hi.item() != 9.0) failures.add("round " + round + ": a write landed in a fresh tensor's bytes");
        }
        s.close();
      }
    }
    assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
    System.out.println("concurrency: " + counts[0] + " results checked, " + counts[1] + " IllegalStateException");
  }

  /** One op on a shared tensor (3.0 everywhere) whose handle another thread may close meanwhile. */
  private static void compute(Random r, Tensor x, Tensor dst, ConcurrentLinkedQueue<String> failures, long[] counts) {
    int op = r.nextInt(8);
    try (TensorScope scope = TensorScope.open()) {
      double got, want;
      switch (op) {
        case 0 -> { got = x.sum().item(); want = V * N * N; }
        case 1 -> { got = x.add(x).amax().item(); want = 2 * V; }
        case 2 -> { got = x.matmul(x).amin().item(); want = V * V * N; }
        case 3 -> { got = x.reshape(-1).narrow(0, 5, 10).sum().item(); want = 10 * V; }
        case 4 -> { got = x.get(Index.at(3)).sum().item(); want = N * V; }
        case 5 -> { got = x.indexSelect(0, Tensor.fromArray(new long[] {1, 2})).sum().item(); want = 2 * N * V; }
        case 6 -> { dst.copy_(x); got = 0; want = 0; }  // the write must land in dst's bytes only
        default -> { dst.fill_(5.0); got = 0; want = 0; }
      }
      if (got != want) failures.add("op " + op + " gave " + got + ", expected " + want);
      synchronized (counts) {
        counts[0]++;
      }
    } catch (IllegalStateException closed) {
      synchronized (counts) {
        counts[1]++;
      }
    } catch (Throwable e) {
      failures.add("op " + op + " threw " + e);
    }
  }

  @Test
  void onlyTheOpeningThreadMayCloseAScope() throws InterruptedException {
    TensorScope s = TensorScope.open();
    try {
      AtomicReference<Throwable> seen = new AtomicReference<>();
      Thread t = new Thread(() -> seen.set(assertThrows(IllegalStateException.class, s::close)));
      t.start();
      t.join();
      assertEquals(IllegalStateException.class, seen.get().getClass());
    } finally {
      s.close();
    }
  }
}
