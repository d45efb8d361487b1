package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.core.LeakCollector;
import org.jtensor.core.LeakTracker;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hostile tests of LeakDetector.collect()'s scan of the registries (LeakTracker.collectAndDrain)
 * racing the detector's thread, owners closing their storages, threads ending (their registries
 * pruned into the orphans), registries compacting, and collect() itself: each leaked storage is
 * freed and reported exactly once, every byte is back when collect() returns, and collect()
 * returns from wherever it is called (a leak listener included).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CollectRaceHostileTest {
  private static final java.util.logging.Logger LEAK_LOG = java.util.logging.Logger.getLogger("org.jtensor.leak");

  @BeforeEach
  void quiet() {
    LEAK_LOG.setLevel(java.util.logging.Level.OFF);  // hundreds of deliberate leak reports
  }

  @AfterEach
  void noListener() {
    LeakDetector.setListener(null);
    LEAK_LOG.setLevel(null);
  }

  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  /** A storage of n floats, never closed, unreachable once this returns. */
  private static void leak(long n) {
    Tensor.ones(n);
  }

  private static Object internal(Class<?> c, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = c.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(null);
  }

  /** LeakCollector's count of tracked bytes not yet released or freed. */
  private static long liveTracked() throws ReflectiveOperationException {
    return ((AtomicLong) internal(LeakCollector.class, "LIVE")).get();
  }

  /** How many references of ended threads wait in LeakTracker's shared list. */
  private static int orphans() throws ReflectiveOperationException {
    Object lock = internal(LeakTracker.class, "PRUNING");
    synchronized (lock) {
      return ((List<?>) internal(LeakTracker.class, "ORPHANS")).size();
    }
  }

  /**
   * The count once it reaches want, or after 10 s. collect() returns once every leak it found is
   * freed and counted; a leak the detector's own thread took may still be in its listener then.
   */
  private static int eventually(AtomicInteger count, int want) throws InterruptedException {
    for (int i = 0; i < 1_000 && count.get() < want; i++) Thread.sleep(10);
    return count.get();
  }

  private static Thread start(String name, Runnable r, ConcurrentLinkedQueue<Throwable> errors) {
    Thread t = new Thread(() -> {
      try {
        r.run();
      } catch (Throwable e) {
        errors.add(e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Test
  @Order(1)
  @ExpectsLeakReports
  void leakersClosersAndCollectorsTogetherFreeEachLeakExactlyOnce() throws Exception {
    long before = allocated(), leaksBefore = LeakDetector.leaksReported(), liveBefore = liveTracked();
    AtomicInteger heard = new AtomicInteger();
    LeakDetector.setListener(msg -> heard.incrementAndGet());
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicInteger leaked = new AtomicInteger(), collections = new AtomicInteger();
    AtomicBoolean workersDone = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    int leakers = 3, perLeaker = 400, closers = 2, perCloser = 1_500;
    for (int i = 0; i < leakers; i++) {
      int id = i;
      workers.add(start("leaker-" + i, () -> {
        for (int k = 0; k < perLeaker; k++) {
          leak(1 + (k * 7 + id) % 64);
          leaked.incrementAndGet();
          if (k % 100 == 99) {  // collect() from several threads at once
            LeakDetector.collect();
            collections.incrementAndGet();
          }
        }
      }, errors));
    }
    for (int i = 0; i < closers; i++) {
      workers.add(start("closer-" + i, () -> {
        for (int k = 0; k < perCloser; k++) {
          Tensor base = Tensor.ones(64);
          Tensor view = base.narrow(0, 8, 32);  // the storage outlives its base tensor through the view
          base.close();
          for (int j = 0; j < 3; j++) leak(4);  // entries a compaction keeps among closed ones
          leaked.addAndGet(3);
          try (Tensor s = view.sum()) {
            if (s.item() != 32.0) throw new AssertionError("a view's storage changed under it: sum " + s.item());
          }
          view.close();
        }
      }, errors));
    }
    Thread collector = start("collector", () -> {
      while (!workersDone.get()) {
        LeakDetector.collect();
        collections.incrementAndGet();
      }
    }, errors);
    for (Thread t : workers) t.join(60_000);
    workersDone.set(true);
    collector.join(60_000);
    for (Thread t : workers) assertFalse(t.isAlive(), t.getName() + " still running: a deadlock?");
    assertFalse(collector.isAlive(), "the collector is still running: a deadlock?");
    assertTrue(errors.isEmpty(), "errors: " + errors);
    LeakDetector.collect();
    assertEquals(before, allocated(), "bytes right after the last collect()");
    assertEquals(leaked.get(), LeakDetector.leaksReported() - leaksBefore, "leaks reported (" + collections + " collections)");
    assertEquals(leaked.get(), eventually(heard, leaked.get()), "listener calls");
    assertEquals(liveBefore, liveTracked(), "LeakCollector's live bytes");
  }

  @Test
  @Order(2)
  @ExpectsLeakReports
  void leaksOfEndedThreadsArePrunedToTheOrphansAndFreedByCollectWhileTheListenerStartsThreads() throws Exception {
    long before = allocated(), leaksBefore = LeakDetector.leaksReported();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Tensor> held = Collections.synchronizedList(new ArrayList<>());
    int n = 100;
    for (int i = 0; i < n; i += 10) {  // threads that make a storage each and end: kept reachable for now
      List<Thread> batch = new ArrayList<>();
      for (int k = 0; k < 10; k++) batch.add(start("maker", () -> held.add(Tensor.ones(16 + held.size() % 8)), errors));
      for (Thread t : batch) t.join();
    }
    // New threads' registries prune the ended ones (when the registry count has doubled): theirs
    // still pending move to the orphans. Enough threads for that, however many are registered.
    for (int i = 0; i < 20_000 && orphans() < n; i++) {
      Thread t = start("pruner", () -> Tensor.ones(2).close(), errors);
      t.join();
    }
    assertTrue(orphans() >= n, orphans() + " orphans: the makers' registries were not pruned");
    assertEquals(n, held.size());
    // Each report starts a thread that allocates (a new registry: the pruning lock) and waits for it.
    AtomicInteger heard = new AtomicInteger(), joined = new AtomicInteger();
    LeakDetector.setListener(msg -> {
      heard.incrementAndGet();
      Thread t = start("from-listener", () -> Tensor.ones(3).close(), errors);
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!t.isAlive()) joined.incrementAndGet();
    });
    held.clear();  // now unreachable, not yet freed
    LeakDetector.collect();
    assertEquals(before, allocated(), "bytes right after collect()");
    assertEquals(n, LeakDetector.leaksReported() - leaksBefore, "leaks reported");
    assertEquals(n, eventually(heard, n), "listener calls");
    assertEquals(n, eventually(joined, n), "threads the listener started that ended");
    assertTrue(errors.isEmpty(), "errors: " + errors);
  }

  @Test
  @Order(3)
  @ExpectsLeakReports
  void collectFreesWhatItsCollectionFoundWhileTheLeakingThreadsCompactTheirRegistries() throws Exception {
    long before = allocated(), leaksBefore = LeakDetector.leaksReported();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    int threads = 2, rounds = 60;
    AtomicInteger leaked = new AtomicInteger(), round = new AtomicInteger(-1);
    // canaries[r]: cleared by round r's collect()'s collection, when the compactors start compacting
    java.util.concurrent.atomic.AtomicReferenceArray<WeakReference<Object>> canaries =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(rounds);
    long deadline = System.nanoTime() + 60_000_000_000L;  // a hang guard only
    List<Thread> ws = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      ws.add(start("compactor-" + i, () -> {
        for (int r = 0; r < rounds; r++) {
          while (round.get() < r) if (System.nanoTime() > deadline) throw new AssertionError("stuck"); else Thread.yield();
          for (int k = 0; k < 40 + r % 23; k++) Tensor.ones(1).close();  // closed entries below the leak
          leak(8);
          leaked.incrementAndGet();
          WeakReference<Object> c;
          while ((c = canaries.get(r)) == null || !c.refersTo(null)) {  // until collect()'s collection
            if (System.nanoTime() > deadline) throw new AssertionError("stuck");
            Thread.yield();
          }
          for (int k = 0; k < 130; k++) Tensor.ones(1).close();  // compactions while collect() scans
        }
      }, errors));
    }
    for (int r = 0; r < rounds; r++) {
      round.set(r);
      while (leaked.get() < threads * (r + 1)) {
        assertTrue(System.nanoTime() < deadline && errors.isEmpty(), "compactors stuck: " + errors);
        Thread.yield();
      }
      canaries.set(r, new WeakReference<>(new Object()));
      LeakDetector.collect();
      assertEquals(threads * (r + 1), LeakDetector.leaksReported() - leaksBefore,
          "round " + r + ": leaks freed when collect() returned");
    }
    for (Thread t : ws) t.join(20_000);
    assertTrue(errors.isEmpty(), "errors: " + errors);
    LeakDetector.collect();
    assertEquals(before, allocated());
  }

  @Test
  @Order(99)  // last: if it hangs, the state it leaves is repaired as far as a test can
  @ExpectsLeakReports
  void collectCalledFromTheLeakListenerReturns() throws Exception {
    long before = allocated(), leaksBefore = LeakDetector.leaksReported();
    AtomicInteger entered = new AtomicInteger(), left = new AtomicInteger();
    AtomicReference<String> on = new AtomicReference<>();
    LeakDetector.setListener(msg -> {
      entered.incrementAndGet();
      on.set(Thread.currentThread().getName());
      LeakDetector.collect();  // e.g. "a leak was found: free whatever else is garbage now"
      left.incrementAndGet();
    });
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    Thread t = start("collects", () -> {
      leak(256);
      LeakDetector.collect();
    }, errors);
    t.join(8_000);
    boolean hung = t.isAlive();
    String state = "listener entered " + entered + " time(s) on " + on + ", left " + left;
    if (hung) unstick(t, entered, left);
    assertFalse(hung, "collect() did not return within 8 s: the leak listener's collect() waits for the take "
        + "that runs the listener (if LeakTracker.RECOVERING counts it); " + state);
    assertTrue(errors.isEmpty(), "errors: " + errors);
    assertEquals(1, LeakDetector.leaksReported() - leaksBefore);
    assertEquals(1, eventually(left, 1), "the listener's collect() returned (on the detector's thread, if it took the leak)");
    assertEquals(before, allocated());
  }

  /**
   * The hang found: the take that runs the listener counts itself in RECOVERING, and the listener's
   * collect() waits for that count to reach 0. Uncount it so the stuck collect()s return (and no
   * later test class hangs on the collection lock they hold), then count it back once its take ended.
   */
  private static void unstick(Thread collector, AtomicInteger entered, AtomicInteger left) throws Exception {
    AtomicInteger recovering = (AtomicInteger) internal(LeakTracker.class, "RECOVERING");
    recovering.decrementAndGet();
    collector.join(20_000);
    for (int i = 0; i < 2_000 && (left.get() < entered.get() || recovering.get() >= 0); i++) Thread.sleep(10);
    recovering.incrementAndGet();
  }
}
