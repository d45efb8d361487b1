package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jtensor.data.Batch;
import org.jtensor.data.DataLoader;
import org.jtensor.data.Dataset;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * The CPU allocator's per-thread caches (Note [Thread caches] in native/src/allocator/thread_cache.h)
 * from the Java API, as a demanding user meets them: small tensors made on one thread and closed on
 * another, hundreds of short-lived threads, reports and emptyCache from a third thread while two
 * churn, DataLoader workers over many epochs, exact peaks on one thread, and a memory limit that is
 * met only once another (live) thread's parked blocks are merged and their segment released.
 *
 * <p>Every tensor is filled with a value of its own thread and iteration and checked before it is
 * closed: a block handed out to two owners at once shows as a changed value. Each test ends with
 * every ".current" statistic, after emptyCache, back where it was after emptyCache before the test
 * (so no parked block pins a segment and no count drifts), as well as under MemoryAccounting.
 */
class ThreadCacheHostileTest {
  private static final long KiB = 1024, MiB = 1024 * KiB;
  private static final long CACHE = 512 * KiB;      // a thread cache's default capacity
  private static final long CACHEABLE = 32 * KiB;   // the largest block a thread cache parks

  /** Bytes a request of n bytes takes from the allocator (CachingAllocator::round_size). */
  private static long rounded(long n) {
    return Math.max(512, (n + 511) / 512 * 512);
  }

  /** Every ".current" statistic of the CPU allocator (and the wrapped bytes'). */
  private static Map<String, Long> currents() {
    Map<String, Long> m = new TreeMap<>();
    Memory.memoryStats(Device.CPU).forEach((k, v) -> {
      if (k.endsWith(".current")) m.put(k, v);
    });
    return m;
  }

  /** Fails naming every ".current" statistic that is not where it was. */
  private static void assertBack(Map<String, Long> before, Map<String, Long> now, String what) {
    List<String> moved = new ArrayList<>();
    for (String k : before.keySet()) {
      if (!before.get(k).equals(now.get(k))) moved.add(k + " " + before.get(k) + " -> " + now.get(k));
    }
    assertTrue(moved.isEmpty(), () -> what + ": " + String.join(", ", moved));
  }

  /** The currents once the cache is emptied: what a test must come back to. */
  private static Map<String, Long> settled() {
    Memory.emptyCache(Device.CPU);
    return currents();
  }

  /** A float32 tensor of n elements, every one equal to v (exact in float: |v| < 2^24). */
  private static Tensor filled(int n, float v) {
    return Tensor.full(new long[] {n}, v, DType.FLOAT32);
  }

  /** Throws when any element of t is not v: its block was written by another owner. */
  private static void check(Tensor t, float v, String what) {
    float[] a = t.toFloatArray();
    for (int i = 0; i < a.length; i++) {
      if (a[i] != v) {
        throw new AssertionError(what + ": element " + i + " of " + a.length + " is " + a[i] + ", written as " + v
            + " (its block was handed to another owner)");
      }
    }
  }

  /** Sizes in floats: mostly blocks a thread cache parks (up to 32 KiB), some just above. */
  private static int size(Random r) {
    int k = r.nextInt(10);
    if (k < 7) return 1 + r.nextInt(8192);            // 4 B .. 32 KiB
    if (k < 9) return 128 * (1 + r.nextInt(64));       // whole 512 B multiples up to 32 KiB
    return 8193 + r.nextInt(4096);                     // 32 KiB + 4 B .. 48 KiB: never parked
  }

  /** Runs the same kinds of calls once on this thread, so lazily made state is made before a baseline. */
  private static void warmUp() {
    Random r = new Random(1);
    for (int i = 0; i < 50; i++) {
      try (Tensor t = filled(size(r), i)) {
        check(t, i, "warm-up");
      }
    }
  }

  /** Joins t, failing the test with whatever t threw. */
  private static void join(Thread t, AtomicReference<Throwable> failure) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(60));
    if (t.isAlive()) fail(t.getName() + " did not finish");
    Throwable e = failure.get();
    if (e != null) throw new AssertionError(e.getMessage(), e);
  }

  private static Thread start(String name, AtomicReference<Throwable> failure, Runnable body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, name);
    t.start();
    return t;
  }

  /**
   * 256 threads, four at a time, each making and closing small tensors; each also leaves two tensors
   * to the next wave's threads, which check and close them after their maker has exited. At the end
   * every byte and count is back, and emptyCache gives back every segment the threads used.
   */
  @Test
  void hundredsOfShortLivedThreadsGiveEverythingBack() throws InterruptedException {
    warmUp();
    Map<String, Long> before = settled();
    long allocated = Memory.memoryAllocated(Device.CPU);
    record Left(Tensor t, float v) {}
    ConcurrentLinkedQueue<Left> left = new ConcurrentLinkedQueue<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int wave = 0; wave < 64; wave++) {
      List<Thread> ts = new ArrayList<>();
      for (int k = 0; k < 4; k++) {
        int id = wave * 4 + k;
        ts.add(start("short-lived-" + id, failure, () -> {
          Random r = new Random(id);
          for (int taken = 0; taken < 2; taken++) {  // an earlier wave's tensors, their maker gone
            Left l = left.poll();
            if (l == null) break;
            check(l.t, l.v, "a tensor closed after its maker exited");
            l.t.close();
          }
          ArrayDeque<Tensor> ring = new ArrayDeque<>();
          ArrayDeque<Float> values = new ArrayDeque<>();
          for (int i = 0; i < 40; i++) {
            float v = id * 64 + i;
            ring.add(filled(size(r), v));
            values.add(v);
            if (ring.size() > 6) {
              Tensor t = ring.poll();
              check(t, values.poll(), "thread " + id);
              t.close();
            }
          }
          for (int i = 0; i < 2; i++) left.add(new Left(ring.poll(), values.poll()));
          while (!ring.isEmpty()) {
            Tensor t = ring.poll();
            check(t, values.poll(), "thread " + id);
            t.close();
          }
        }));
      }
      for (Thread t : ts) join(t, failure);
    }
    for (Left l; (l = left.poll()) != null; ) {
      check(l.t, l.v, "a tensor closed by the test thread");
      l.t.close();
    }
    assertEquals(allocated, Memory.memoryAllocated(Device.CPU), "every byte the threads allocated is free again");
    assertBack(before, settled(), "after emptyCache every count and segment is as before the threads ran");
  }

  /**
   * A producer makes tensors a consumer checks and closes (so the consumer parks the producer's
   * blocks and its own tensors reuse them), while a third thread reports, snapshots and empties the
   * cache all along. Every report lies between the bytes live before and that plus what the two
   * threads can hold (plus a cache each, for frees parked while the report folds other caches),
   * every peak is at least its current, and every block a snapshot shows allocated has its requested
   * size (a snapshot once showed blocks parked after their cache's flush as allocated, requested 0).
   */
  @Test
  void reportsAndEmptyCacheFromAThirdThreadWhileTwoThreadsChurn() throws InterruptedException {
    warmUp();
    Map<String, Long> before = settled();
    long base = Memory.memoryAllocated(Device.CPU);
    final int items = 3000, queued = 8, ring = 4;
    // the producer holds one tensor and the queue `queued`; the consumer one taken and up to `ring` + 1 of its own
    long most = (1 + queued + 1 + ring + 1) * rounded(12288 * 4L) + 2 * CACHE;
    BlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(queued);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread producer = start("producer", failure, () -> {
      Random r = new Random(11);
      try {
        for (int i = 0; i <= items && failure.get() == null; i++) {
          Object[] item = i == items ? new Object[0] : new Object[] {filled(size(r), i), (float) i};
          while (!queue.offer(item, 10, TimeUnit.MILLISECONDS)) {
            if (failure.get() != null) {  // the consumer failed: nobody takes it
              if (item.length > 0) ((Tensor) item[0]).close();
              return;
            }
          }
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread consumer = start("consumer", failure, () -> {
      Random r = new Random(12);
      ArrayDeque<Tensor> mine = new ArrayDeque<>();
      ArrayDeque<Float> values = new ArrayDeque<>();
      try {
        for (int i = 0; ; i++) {
          Object[] item;
          while ((item = queue.poll(10, TimeUnit.MILLISECONDS)) == null) {
            if (failure.get() != null) return;  // the producer failed
          }
          if (item.length == 0) break;
          Tensor t = (Tensor) item[0];
          check(t, (Float) item[1], "made by the producer, closed by the consumer");
          t.close();
          float v = -1 - i;
          mine.add(filled(size(r), v));  // likely the producer's block, parked here a moment ago
          values.add(v);
          if (mine.size() > ring) {
            Tensor m = mine.poll();
            check(m, values.poll(), "the consumer's own");
            m.close();
          }
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        while (!mine.isEmpty()) {
          Tensor m = mine.poll();
          check(m, values.poll(), "the consumer's own");
          m.close();
        }
      }
    });
    List<String> bad = new ArrayList<>();
    int reports = 0;
    while ((producer.isAlive() || consumer.isAlive()) && failure.get() == null) {
      Map<String, Long> s = Memory.memoryStats(Device.CPU);
      long current = s.get("allocated_bytes.all.current");
      if (current < base || current > base + most) bad.add("allocated_bytes " + current + " outside [" + base + ", " + (base + most) + "]");
      for (String f : new String[] {"allocated_bytes", "active_bytes", "requested_bytes", "allocation", "active", "inactive_split",
                                    "inactive_split_bytes"}) {
        for (String pool : new String[] {"all", "small_pool", "large_pool"}) {
          long c = s.get(f + "." + pool + ".current"), p = s.get(f + "." + pool + ".peak");
          if (c < 0 || p < c) bad.add(f + "." + pool + ": current " + c + ", peak " + p);
        }
      }
      switch (reports++ % 4) {
        case 0 -> Memory.emptyCache(Device.CPU);
        case 1 -> {
          for (Memory.Segment seg : Memory.memorySnapshot(Device.CPU)) {
            for (Memory.Block b : seg.blocks()) {
              if (b.state().equals("active_allocated") && (b.requestedSize() <= 0 || b.requestedSize() > b.size())) {
                bad.add("snapshot: an allocated block of " + b.size() + " bytes with requested size " + b.requestedSize());
              }
            }
          }
        }
        case 2 -> Memory.resetPeakMemoryStats(Device.CPU);
        default -> Thread.onSpinWait();
      }
      if (bad.size() > 5) break;
    }
    join(producer, failure);
    join(consumer, failure);
    for (Object[] item; (item = queue.poll()) != null; ) if (item.length > 0) ((Tensor) item[0]).close();
    assertTrue(bad.isEmpty(), () -> "reports taken while two threads churned were wrong: " + String.join("; ", bad));
    assertTrue(reports > 4, "the reports ran while the threads churned: " + reports);
    assertEquals(base, Memory.memoryAllocated(Device.CPU));
    assertBack(before, settled(), "after emptyCache every count and segment is as before");
  }

  /** Sample i: 784 floats made through intermediates, each 2 * (i % 1000) + 1, and i as a label. */
  private static final class Images implements Dataset<List<Object>> {
    @Override
    public List<Object> get(long index) {
      try (Tensor raw = Tensor.full(new long[] {28, 28}, (double) (index % 1000), DType.FLOAT32);
           Tensor twice = raw.mul(2.0);
           Tensor plus = twice.add(1.0)) {
        return List.of(plus.reshape(784), index);
      }
    }

    @Override
    public long size() {
      return 200;
    }
  }

  /**
   * A DataLoader with two workers over 15 shuffled epochs: every batch's rows are their samples',
   * and after each epoch (and after the loader closes) no byte is left allocated; after emptyCache
   * every segment the workers' caches held is given back.
   */
  @Test
  void aDataLoaderWithWorkersOverManyEpochsLeavesNothing() throws InterruptedException {
    Images data = new Images();
    warmUp();
    try (DataLoader<List<Object>> once = DataLoader.builder(data).batchSize(16).shuffle(true).generator(new Generator(4)).build()) {
      for (Batch b : once) b.get(0).toFloatArray();  // lazily made state (shuffling, stacking) before the baseline
    }
    Map<String, Long> before = settled();
    long base = Memory.memoryAllocated(Device.CPU);
    Generator g = new Generator(5);
    try (DataLoader<List<Object>> loader = DataLoader.builder(data).batchSize(16).shuffle(true).generator(g).numWorkers(2).build()) {
      for (int epoch = 0; epoch < 15; epoch++) {
        long rows = 0;
        for (Batch b : loader) {
          long[] labels = b.get(1).toLongArray();
          float[] x = b.get(0).toFloatArray();
          assertEquals(labels.length * 784L, x.length);
          for (int r = 0; r < labels.length; r++) {
            float want = 2 * (labels[r] % 1000) + 1;
            for (int c = 0; c < 784; c++) {
              if (x[r * 784 + c] != want) fail("epoch " + epoch + ": sample " + labels[r] + " element " + c + " is " + x[r * 784 + c] + ", not " + want);
            }
          }
          rows += labels.length;
        }
        assertEquals(200, rows);
        assertEquals(base, Memory.memoryAllocated(Device.CPU), "epoch " + epoch + " left bytes allocated");
      }
    }
    assertEquals(base, Memory.memoryAllocated(Device.CPU));
    assertTrue(workersGone(), "the workers ended");
    assertBack(before, settled(), "after emptyCache every count and segment is as before the loader ran");
  }

  private static boolean workersGone() throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      if (Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("jtensor-data-worker-"))) return true;
      Thread.sleep(10);
    }
    return false;
  }

  /**
   * On one thread, maxMemoryAllocated after resetPeakMemoryStats is the true peak of the bytes live,
   * also when the peak is reached by cache hits between two locked calls (blocks parked, a fold by an
   * uncacheable allocation, then the parked blocks taken back on top of it).
   */
  @Test
  void thePeakOnOneThreadIsExact() {
    warmUp();
    // the native test's case: 100 x 1 KiB parked, 200 KiB held (a fold), the 100 KiB taken back
    Memory.resetPeakMemoryStats(Device.CPU);
    long base = Memory.memoryAllocated(Device.CPU);
    List<Tensor> small = new ArrayList<>();
    for (int i = 0; i < 100; i++) small.add(Tensor.empty(new long[] {1024}, DType.UINT8));
    for (Tensor t : small) t.close();
    small.clear();
    try (Tensor held = Tensor.empty(new long[] {200 * KiB}, DType.UINT8)) {
      for (int i = 0; i < 100; i++) small.add(Tensor.empty(new long[] {1024}, DType.UINT8));
      for (Tensor t : small) t.close();
    }
    assertEquals(base + 300 * KiB, Memory.maxMemoryAllocated(Device.CPU), "a peak reached by cache hits is counted");

    // random runs: the peak of live rounded bytes, each run after a reset
    Random r = new Random(3);
    for (int run = 0; run < 6; run++) {
      Memory.resetPeakMemoryStats(Device.CPU);
      base = Memory.memoryAllocated(Device.CPU);
      List<Tensor> live = new ArrayList<>();
      long bytes = 0, peak = 0;
      for (int i = 0; i < 3000; i++) {
        if (live.isEmpty() || (live.size() < 48 && r.nextInt(3) != 0)) {
          int k = r.nextInt(20);
          long n = k == 0 ? 40 * KiB + r.nextInt(200_000) : k == 1 && r.nextInt(10) == 0 ? 3 * MiB : 1 + r.nextInt((int) CACHEABLE);
          live.add(Tensor.empty(new long[] {n}, DType.UINT8));
          bytes += rounded(n);
          peak = Math.max(peak, bytes);
        } else {
          Tensor t = live.remove(r.nextInt(live.size()));
          bytes -= rounded(t.nbytes());
          t.close();
        }
      }
      for (Tensor t : live) t.close();
      assertEquals(base + peak, Memory.maxMemoryAllocated(Device.CPU), "run " + run + ": the peak of live bytes");
      assertEquals(base, Memory.memoryAllocated(Device.CPU));
    }
  }

  /** What {@link #parkOver} left: the parker's segment, where it starts, and the bytes reserved with it. */
  private record Parked(Thread owner, long segment, long reserved) {}

  /**
   * A live thread fills every free hole of 32 KiB or more with tensors it keeps (so no free space
   * but its own segment is left to larger requests), then fills a new small segment with 64 blocks of
   * 32 KiB, parks every fourth (16: its cache full) and frees the rest to the pools, which so hold
   * runs of 96 KiB between parked blocks: only those pin the segment. Returns once they are
   * parked, with no report since; the thread keeps its fillers until `finish`.
   */
  private static Parked parkOver(CountDownLatch finish, AtomicReference<Throwable> failure) throws InterruptedException {
    CountDownLatch parked = new CountDownLatch(1);
    long[] layout = new long[2];
    Thread owner = start("parker", failure, () -> {
      List<Tensor> fillers = new ArrayList<>();
      List<Tensor> ts = new ArrayList<>();
      try {
        long reserved = Memory.memoryReserved(Device.CPU);
        while (ts.isEmpty()) {  // a report each time: the merged holes are used up first
          Tensor t = filled((int) (CACHEABLE / 4), -1);
          long now = Memory.memoryReserved(Device.CPU);
          if (now > reserved) {
            ts.add(t);  // the front of a new segment
            layout[1] = now;
          } else {
            fillers.add(t);
          }
          if (fillers.size() > 8192) throw new IllegalStateException("256 MiB of holes: a new segment never came");
        }
        for (int i = 1; i < 64; i++) ts.add(filled((int) (CACHEABLE / 4), i));  // the rest of the 2 MiB segment
        layout[0] = ts.get(0).dataPtr();
        for (int i = 0; i < 64; i++) {
          assertEquals(layout[0] + i * CACHEABLE, ts.get(i).dataPtr(), "block " + i + " of the parker's segment");
        }
        for (int i = 0; i < 64; i += 4) {
          check(ts.get(i), i == 0 ? -1 : i, "a block about to be parked");
          ts.get(i).close();  // 16 x 32 KiB: the cache full
        }
        for (int i = 0; i < 64; i++) {
          if (i % 4 != 0) {
            check(ts.get(i), i, "a neighbour of parked blocks");
            ts.get(i).close();  // to the pools: the cache is full
          }
        }
        parked.countDown();
        finish.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        for (Tensor t : ts) t.close();
        for (Tensor t : fillers) {
          check(t, -1, "a filler");
          t.close();
        }
      }
    });
    if (!parked.await(30, TimeUnit.SECONDS) || failure.get() != null) {
      finish.countDown();
      join(owner, failure);
      fail("the parker did not park");
    }
    return new Parked(owner, layout[0], layout[1]);
  }

  /** A check that runs while another live thread's blocks are parked ({@link #parkOver}). */
  private interface WhileParked {
    void run(Parked p) throws Exception;
  }

  /** Parks blocks on another live thread, runs check, then lets the thread finish and joins it. */
  private static void whileParked(WhileParked check) throws Exception {
    CountDownLatch finish = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Parked p = parkOver(finish, failure);
    try {
      check.run(p);
    } finally {
      finish.countDown();
      join(p.owner, failure);
    }
  }

  /**
   * Right after another live thread parked blocks: a 96 KiB request takes the first run between
   * them (the cache holds 512 KiB, no more); a 1 MiB request, which no pool block can serve, merges
   * the parked blocks first and takes their segment (no new one); emptyCache gives the segment back.
   */
  @Test
  void parkedBlocksOfALiveThreadAreMergedBeforeGrowingAndByEmptyCache() throws Exception {
    warmUp();
    Map<String, Long> before = settled();
    whileParked(p -> {
      try (Tensor run = Tensor.empty(new long[] {3 * CACHEABLE}, DType.UINT8)) {
        assertEquals(p.segment + CACHEABLE, run.dataPtr(), "the first 96 KiB run between parked blocks (16 parked, the rest in the pools)");
        try (Tensor mib = Tensor.empty(new long[] {MiB}, DType.UINT8)) {
          assertEquals(p.segment + 4 * CACHEABLE, mib.dataPtr(), "the parked blocks merged: 1 MiB after the 96 KiB");
          mib.fill_(3L);
          run.fill_(4L);
          assertEquals(p.reserved, Memory.memoryReserved(Device.CPU), "no segment reserved while parked blocks could serve");
        }
      }
      Memory.emptyCache(Device.CPU);
      assertEquals(p.reserved - 2 * MiB, Memory.memoryReserved(Device.CPU), "emptyCache gave the parker's segment back");
    });
    assertBack(before, settled(), "after emptyCache every count and segment is as before");
  }

  /** emptyCache, as the first call after another live thread parked blocks, gives their segment back. */
  @Test
  void emptyCacheReleasesASegmentPinnedOnlyByALiveThreadsParkedBlocks() throws Exception {
    warmUp();
    Map<String, Long> before = settled();
    whileParked(p -> {
      Memory.emptyCache(Device.CPU);
      assertEquals(p.reserved - 2 * MiB, Memory.memoryReserved(Device.CPU), "emptyCache merged the live thread's parked blocks");
    });
    assertBack(before, settled(), "after emptyCache every count and segment is as before");
  }

  /**
   * Under a memory limit that leaves room for a 12 MiB segment only once the segment another live
   * thread's parked blocks pin is released, a 12 MiB tensor is made: the out-of-memory retry merges
   * every thread's parked blocks and releases the freed segment (Note [Thread caches]).
   */
  @Test
  void anAllocationThatFitsOnlyOnceAnotherThreadsParkedBlocksAreMergedSucceeds() throws Exception {
    warmUp();
    Map<String, Long> before = settled();
    long request = 12 * MiB;  // >= 10 MiB: a segment of its own, 2 MiB rounded
    long largestFree = 0;
    for (Memory.Segment s : Memory.memorySnapshot(Device.CPU)) {
      for (Memory.Block b : s.blocks()) if (b.state().equals("inactive")) largestFree = Math.max(largestFree, b.size());
    }
    assertTrue(largestFree < request, "the test needs no free block of 12 MiB already: " + largestFree);
    long retries = Memory.memoryStats(Device.CPU).get("num_alloc_retries"), limit = Memory.memoryLimit(Device.CPU);
    whileParked(p -> {
      long room = p.reserved - 2 * MiB + request;  // everything reserved but the parker's segment, and the request
      Tensor big;
      Memory.setMemoryLimit(Device.CPU, room);  // no report since the parks
      try {
        big = Tensor.empty(new long[] {request}, DType.UINT8);  // the allocation alone under the limit
      } finally {
        Memory.setMemoryLimit(Device.CPU, limit);
      }
      try (big) {
        Map<String, Long> s = Memory.memoryStats(Device.CPU);
        assertEquals(retries + 1, s.get("num_alloc_retries"), "the segment came on the retry");
        assertEquals(room, s.get("reserved_bytes.all.current"), "the parker's segment went back for it");
        big.fill_(7L);
        try (Tensor lo = big.amin(); Tensor hi = big.amax()) {
          assertEquals(7L, lo.itemLong());
          assertEquals(7L, hi.itemLong());
        }
      }
    });
    assertBack(before, settled(), "after emptyCache every count and segment is as before");
  }
}
