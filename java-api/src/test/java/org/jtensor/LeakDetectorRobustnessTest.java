package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, points 4, 5 and 7: the leak detector survives anything a listener throws and always
 * frees and releases; a thread's registry goes when the thread ends; Storage.wrap(ByteBuffer) works
 * as the first call of a JVM.
 */
class LeakDetectorRobustnessTest {
  private static final long MiB = 1 << 20;

  // These tests leak on purpose, up to 20,000 times: the reports (each with a stack trace under
  // PARANOID) would flood the test log, so the leak and wrap loggers stay quiet while they run.
  private static final java.util.logging.Logger LEAK_LOG = java.util.logging.Logger.getLogger("org.jtensor.leak");
  private static final java.util.logging.Logger WRAP_LOG = java.util.logging.Logger.getLogger("org.jtensor.wrap");

  @org.junit.jupiter.api.BeforeEach
  void quiet() {
    LEAK_LOG.setLevel(java.util.logging.Level.OFF);
    WRAP_LOG.setLevel(java.util.logging.Level.OFF);
  }

  @AfterEach
  void noListener() {
    LeakDetector.setListener(null);
    LEAK_LOG.setLevel(null);
    WRAP_LOG.setLevel(null);
  }

  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  /** Collects until done holds (at most about 4 s); the library itself never calls System.gc(). */
  private static void collectUntil(BooleanSupplier done) throws InterruptedException {
    for (int i = 0; i < 200 && !done.getAsBoolean(); i++) {
      System.gc();
      Thread.sleep(20);
    }
  }

  private static void leak(long bytes) {
    Tensor.empty(new long[] {bytes / 4}, DType.FLOAT32, Device.CPU);  // never closed, never kept
  }

  @Test
  @ExpectsLeakReports
  void aListenerThatThrowsAnErrorDoesNotStopLeakRecovery() throws InterruptedException {
    long before = allocated();
    AtomicInteger calls = new AtomicInteger();
    LeakDetector.setListener(msg -> {
      calls.incrementAndGet();
      throw new AssertionError("what a test's fail() throws");
    });
    for (int round = 0; round < 3; round++) {
      leak(2 * MiB);
      collectUntil(() -> allocated() == before);
      assertEquals(before, allocated(), "round " + round + ": the leaked 2 MiB were freed");
    }
    assertTrue(calls.get() >= 3, calls.get() + " listener calls");
  }

  @Test
  @ExpectsLeakReports
  void aListenerThatThrowsStillLetsEveryWrappedReleaseRun() throws InterruptedException {
    AtomicInteger released = new AtomicInteger();
    LeakDetector.setListener(msg -> {
      throw new IllegalStateException("a listener that fails");
    });
    ByteBuffer[] owners = new ByteBuffer[100];
    for (int i = 0; i < owners.length; i++) {
      owners[i] = ByteBuffer.allocateDirect(256);
      long address = org.jtensor.core.DirectBuffers.address(owners[i]);
      Storage.wrap(address, 256, released::incrementAndGet);  // leaked: never closed
    }
    collectUntil(() -> released.get() == owners.length);
    assertEquals(owners.length, released.get(), "every wrapped storage's release ran");
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {  // the lowest of a few collections: a heap settles in steps
      System.gc();
      Thread.sleep(20);
      used = Math.min(used, Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
    }
    return used;
  }

  @Test
  void fortyThousandShortLivedThreadsLeaveTheHeapAsItWas() throws Exception {
    Runnable work = () -> Tensor.ones(4).close();
    for (int i = 0; i < 2_000; i++) {  // warm up: classes loaded, code compiled
      Thread t = new Thread(work);
      t.start();
      t.join();
    }
    long before = usedHeapAfterGc();
    Thread[] batch = new Thread[8];
    // 2 MiB over 40,000 threads: anything a thread's registry left (its 64-slot array alone is
    // over 300 bytes) would show; 100,000 took 20 s of CI's time to say the same.
    for (int i = 0; i < 40_000; i += batch.length) {
      for (int k = 0; k < batch.length; k++) (batch[k] = new Thread(work)).start();
      for (Thread t : batch) t.join();
    }
    long grown = usedHeapAfterGc() - before;
    assertTrue(grown < 2 * MiB, "40,000 threads that close what they make grew the heap by " + grown / 1024 + " KiB");
  }

  @Test
  @ExpectsLeakReports
  void paranoidDropsEachStackTraceOnceItsLeakIsReported() throws Exception {
    org.jtensor.memory.LeakLevel was = LeakDetector.level();
    AtomicInteger reports = new AtomicInteger();
    LeakDetector.setListener(msg -> reports.incrementAndGet());
    LeakDetector.setLevel(org.jtensor.memory.LeakLevel.PARANOID);
    try {
      Thread warm = new Thread(() -> leak(64));
      warm.start();
      warm.join();
      collectUntil(() -> reports.get() >= 1);
      long before = usedHeapAfterGc();
      int n = 20_000, seen = reports.get();
      Thread leaker = new Thread(() -> {  // its list is never compacted again: nothing else is tracked on it
        for (int i = 0; i < n; i++) leak(64);
      });
      leaker.start();
      leaker.join();
      collectUntil(() -> reports.get() >= seen + n);
      assertTrue(reports.get() >= seen + n, (reports.get() - seen) + " of " + n + " leaks reported");
      long grown = usedHeapAfterGc() - before;
      // a stack trace is 1-2 KB: kept, 20,000 of them would be 20-40 MiB
      assertTrue(grown < 4 * MiB, n + " reported PARANOID leaks keep " + grown / 1024 + " KiB of heap");
    } finally {
      LeakDetector.setLevel(was);
    }
  }

  /** The child JVM's main: its very first jtensor call. */
  public static final class FirstCall {
    public static void main(String[] args) {
      try (Storage s = Storage.wrap(ByteBuffer.allocateDirect(64))) {
        System.out.print("wrapped " + s.nbytes());
      }
    }
  }

  @Test
  void storageWrapOfABufferWorksAsTheFirstCallOfAJvm() throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"),
        "-Dorg.bytedeco.javacpp.cachedir=" + System.getProperty("org.bytedeco.javacpp.cachedir", "target/javacpp-cache"),
        FirstCall.class.getName()).redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertEquals("wrapped 64", out);
  }
}
