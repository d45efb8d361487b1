package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;
import org.jtensor.core.TensorImpl;

/** Deterministic memory: who frees the storage and when, scopes, leaks, threads. */
class LifetimeTest {
  private static final long MiB = 1 << 20;

  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  @Test
  void storageIsFreedExactlyWhenTheLastViewCloses() {
    long before = allocated();
    Tensor base = Tensor.empty(new long[] {256, 1024}, DType.FLOAT32);  // 1 MiB
    assertEquals(before + MiB, allocated());
    Tensor v1 = base.transpose(0, 1);
    Tensor v2 = v1.narrow(0, 10, 5);
    base.close();
    assertEquals(before + MiB, allocated(), "views keep the storage alive");
    assertTrue(v2.isView());
    try (Tensor root = v2.base()) {
      assertEquals(256, root.size(0), "base() is the root, still reachable after its handle closed");
    }
    v1.close();
    assertEquals(before + MiB, allocated());
    v2.fill_(3.0);  // still usable
    assertEquals(3.0, v2.getDouble(4, 255));
    v2.close();
    assertEquals(before, allocated(), "the last close returns the block");
  }

  @Test
  void closedHandlesThrowNamingTheOpAndCloseIsIdempotent() {
    Tensor t = Tensor.zeros(2, 3);
    Tensor same = t.contiguous();  // a second handle to the same TensorImpl
    t.close();
    t.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.view(6));
    assertTrue(e.getMessage().startsWith("view()"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> t.fill_(1.0));
    assertThrows(IllegalStateException.class, () -> t.getDouble(0, 0));
    assertEquals(0.0, same.getDouble(1, 2), "the other handle still works");
    assertEquals("tensor(<closed>)", t.toString());
    same.close();
  }

  @Test
  void scopesCloseWhatTheyOwnAndKeepMovesOut() {
    long before = allocated();
    Tensor kept;
    try (TensorScope outer = TensorScope.open()) {
      try (TensorScope inner = TensorScope.open()) {
        Tensor a = Tensor.ones(1024);
        Tensor b = a.view(32, 32);
        kept = inner.keep(b.t());
        assertEquals(2, inner.size());
        assertEquals(1, outer.size(), "kept tensors move to the enclosing scope");
      }
      assertFalse(kept.isClosed());
      assertEquals(1.0, kept.getDouble(3, 4));
      assertEquals(before + 4096 / 512 * 512, allocated());
    }
    assertTrue(kept.isClosed(), "the outer scope closed it");
    assertEquals(before, allocated());
  }

  @Test
  void scopesMustCloseInnermostFirstAndKeepOnlyTheirOwn() {
    try (Tensor outside = Tensor.zeros(2)) {
      TensorScope outer = TensorScope.open();
      TensorScope inner = TensorScope.open();
      try {
        assertThrows(IllegalStateException.class, outer::close);
        assertThrows(IllegalArgumentException.class, () -> inner.keep(outside));
      } finally {
        inner.close();
        outer.close();
      }
      assertFalse(outside.isClosed(), "a scope closes only what was created inside it");
    }
  }

  @Test
  @ExpectsLeakReports
  void leakedTensorIsFreedAndReported() throws InterruptedException {
    long before = allocated();
    AtomicInteger reports = new AtomicInteger();
    LeakDetector.setListener(msg -> reports.incrementAndGet());
    try {
      leakOne();
      assertEquals(before + 4 * MiB, allocated());
      for (int i = 0; i < 200 && (reports.get() == 0 || allocated() != before); i++) {
        System.gc();  // the test forces collection; the library itself never does
        Thread.sleep(20);
      }
      assertTrue(reports.get() >= 1, "the leak was reported");
      assertEquals(before, allocated(), "the Cleaner returned the block");
    } finally {
      LeakDetector.setListener(null);
    }
  }

  @Test
  @ExpectsLeakReports
  void aLeakFromAThreadThatEndedIsStillFreedAndReported() throws Exception {
    long before = allocated();
    AtomicInteger reports = new AtomicInteger();
    LeakDetector.setListener(msg -> reports.incrementAndGet());
    try {
      Thread t = new Thread(LifetimeTest::leakOne);
      t.start();
      t.join();
      for (int i = 0; i < 200 && (reports.get() == 0 || allocated() != before); i++) {
        System.gc();
        Thread.sleep(20);
      }
      assertTrue(reports.get() >= 1, "the dead thread's leak was reported");
      assertEquals(before, allocated(), "and its block returned");
    } finally {
      LeakDetector.setListener(null);
    }
  }

  private static void leakOne() {
    Tensor.empty(new long[] {1024, 1024}, DType.FLOAT32).transpose(0, 1);  // neither handle closed
  }

  @Test
  void eightThreadsCreatingAndClosingViewsEndWithZeroLiveBytes() throws Exception {
    long before = allocated();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    try (Tensor flat = Tensor.arange(0, 4096, 1, DType.FLOAT32); Tensor shared = flat.reshape(64, 64)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        final int seed = t;
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 5000; i++) {
            try (Tensor v = shared.transpose(0, 1); Tensor s = v.select(0, (i + seed) % 64);
                 Tensor own = Tensor.empty(16 + (i % 7) * 100); Tensor ov = own.view(-1)) {
              if (s.getDouble(1) != 64 + (i + seed) % 64) throw new AssertionError("wrong value");
              ov.fill_(1.0);
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) f.get();
    } finally {
      pool.shutdown();
    }
    assertEquals(before, allocated());
  }

  @Test
  void versionCounterIsSharedByViewsAndDetach() {
    try (Tensor x = Tensor.zeros(4); Tensor v = x.narrow(0, 1, 2); Tensor d = x.detach()) {
      int v0 = x.version();
      v.fill_(1.0);
      assertEquals(v0 + 1, x.version());
      assertEquals(x.version(), d.version());
      d.setDouble(5.0, 0);
      assertEquals(v0 + 2, v.version());
      assertFalse(d.isView());
      assertNull(d.base());
      assertTrue(d.isAliasOf(x));
    }
  }

  @Test
  void outOfMemoryRetriesThenThrowsWithStats() {
    Memory.emptyCache(Device.CPU);
    long reserved = Memory.memoryReserved(Device.CPU);
    Memory.resetAccumulatedMemoryStats(Device.CPU);
    try {
      Memory.setMemoryLimit(Device.CPU, reserved + 64 * MiB);
      try (Tensor a = Tensor.empty(new long[] {8 * MiB}, DType.FLOAT32)) {  // 32 MiB
        assertEquals(32 * MiB, a.nbytes());
      }
      // the 32 MiB block is cached; 48 MiB more does not fit beside it until the cache is freed
      try (Tensor b = Tensor.empty(new long[] {12 * MiB}, DType.FLOAT32)) {
        assertEquals(1L, Memory.memoryStats(Device.CPU).get("num_alloc_retries"));
      }
      var e = assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class,
          () -> Tensor.empty(new long[] {1 << 30}, DType.FLOAT32));
      assertEquals(4L << 30, e.requestedBytes());
      assertTrue(e.stats().get("num_ooms") >= 1, e.getMessage());
      assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
      assertTrue(e.getMessage().contains("of its limit of "), "names the limit: " + e.getMessage());
    } finally {
      Memory.setMemoryLimit(Device.CPU, 0);
    }
    var e = assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class,
        () -> Tensor.empty(new long[] {1L << 46}, DType.FLOAT32));  // 256 TiB, no limit set
    assertTrue(e.getMessage().endsWith("the system refused the memory"), "no limit to blame: " + e.getMessage());
  }

  @Test
  void statsSnapshotAndEmptyCache() {
    Memory.emptyCache(Device.CPU);
    Memory.resetPeakMemoryStats(Device.CPU);
    long reserved0 = Memory.memoryReserved(Device.CPU);
    try (Tensor a = Tensor.empty(new long[] {100}, DType.FLOAT64)) {
      var stats = Memory.memoryStats(Device.CPU);
      assertTrue(stats.get("allocated_bytes.all.current") >= 1024);
      assertTrue(stats.get("requested_bytes.all.current") >= 800);
      assertTrue(stats.keySet().contains("reserved_bytes.small_pool.peak"));
      boolean found = false;
      for (Memory.Segment s : Memory.memorySnapshot(Device.CPU)) {
        for (Memory.Block b : s.blocks()) {
          if (b.address() == a.dataPtr()) {
            found = true;
            assertEquals("active_allocated", b.state());
            assertEquals(1024, b.size());
            assertEquals(800, b.requestedSize());
            assertEquals("small", s.segmentType());
          }
        }
      }
      assertTrue(found, "the tensor's block is in the snapshot");
      assertEquals(0, a.dataPtr() % 64, "64-byte aligned");
    }
    assertTrue(Memory.memoryReserved(Device.CPU) > reserved0 || reserved0 > 0);
    Memory.emptyCache(Device.CPU);
    assertEquals(reserved0 == 0 ? 0 : Memory.memoryReserved(Device.CPU), Memory.memoryReserved(Device.CPU));
    assertSame(Memory.memoryStats(Device.META).size(), 0);
  }

  /**
   * The race ConcurrencyTest found: an op held a view's impl when other threads closed the view
   * and its base, while the storage lived on through a detached tensor. Making a view of it must
   * throw and take nothing (it used to take the storage's reference before failing on the base's).
   */
  @Test
  void aViewOfATensorClosedUnderTheOpThrowsAndTakesNoReference() {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor a = Tensor.ones(8, 8);
    Tensor w = a.t();
    Tensor keep = a.detach();             // the storage, without the base
    TensorImpl seen = w.impl("t");        // what an op on another thread already had
    w.close();
    a.close();
    assertThrows(IllegalStateException.class, () -> seen.view(new long[] {64}, new long[] {1}, 0));
    assertEquals(1, keep.impl("t").storage().refCount(), "only keep's reference is left");
    keep.close();
    assertEquals(before, Memory.memoryAllocated(Device.CPU));
  }
}
