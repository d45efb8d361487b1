package org.jtensor.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.bytedeco.javacpp.BytePointer;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.ExpectsLeakReports;
import org.jtensor.ScopedTest;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.core.StorageImpl;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of core.BufferExports and the out-of-memory retry that waits for garbage
 * buffers' storages (Note [Waiting for garbage buffers]; session 34, docs/reliability.md): the
 * release thread under throwing releases and user code, waits that must not happen, interrupts,
 * num_ooms, leak levels, resize_ and threads racing under a memory limit. Every wait here is a
 * bounded loop that breaks a hang; none is a timing claim.
 */
class BufferExportsHostileTest extends ScopedTest {
  private static final long MiB = 1 << 20;
  private static final long REFUSED = 1L << 50;  // bytes no allocator serves: every request of it is refused

  private static long stat(String key) {
    return Memory.memoryStats(Device.CPU).get(key);
  }

  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  private static void gcUntil(BooleanSupplier done, String what) throws InterruptedException {
    for (int i = 0; i < 300 && !done.getAsBoolean(); i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertTrue(done.getAsBoolean(), what);
  }

  private static StorageImpl impl(Storage s) throws ReflectiveOperationException {
    Field f = Storage.class.getDeclaredField("impl");
    f.setAccessible(true);
    return (StorageImpl) f.get(s);
  }

  private static int exported(StorageImpl s) {
    try {
      Field f = StorageImpl.class.getDeclaredField("exported");
      f.setAccessible(true);
      return f.getInt(s);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static long releases() {
    try {
      Method m = Class.forName("org.jtensor.core.BufferExports").getDeclaredMethod("releases");
      m.setAccessible(true);
      return (long) m.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Thread releaseThread() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("jtensor-buffer-release")).findFirst()
        .orElse(null);
  }

  /** A closed CPU storage of nbytes that only a buffer already garbage holds; a weak reference to that buffer. */
  private static WeakReference<ByteBuffer> garbageExport(long nbytes) {
    try (Storage s = Storage.allocate(nbytes, Device.CPU)) {
      return new WeakReference<>(s.asByteBuffer());
    }
  }

  /**
   * A wrapped storage whose buffer was garbage: its release (user code) runs on the release thread
   * and blocks there until {@link #finish()} (at most 10 s, the hang-breaker, which sets timedOut).
   */
  private static final class BlockedRelease {
    final CountDownLatch entered = new CountDownLatch(1), unblock = new CountDownLatch(1), done = new CountDownLatch(1);
    final AtomicBoolean timedOut = new AtomicBoolean();

    BlockedRelease() throws InterruptedException {
      this(true);
    }

    /** started: wait until the release runs; else until its buffer was found garbage (it may queue behind another). */
    BlockedRelease(boolean started) throws InterruptedException {
      BytePointer p = new BytePointer(64);
      Storage w = Storage.wrap(p.address(), 64, () -> {
        entered.countDown();
        try {
          timedOut.set(!unblock.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        p.deallocate();
        done.countDown();
      });
      WeakReference<ByteBuffer> buffer = new WeakReference<>(w.asByteBuffer());  // after the close only this garbage buffer holds the storage
      w.close();
      if (started) gcUntil(() -> entered.getCount() == 0, "the wrapped storage's release started on the release thread");
      else gcUntil(() -> buffer.get() == null, "the wrapped storage's buffer was found garbage");
    }

    void finish() throws InterruptedException {
      unblock.countDown();
      assertTrue(done.await(20, TimeUnit.SECONDS), "the blocked release ended");
    }
  }

  @Test
  void theReleaseThreadOutlivesAReleaseThatThrowsAndAReportOfItThatThrows() throws Exception {
    long before = allocated();
    StorageImpl overReleased = overReleasedExport();
    // The failure's report fails too: System.err (printStackTrace) and the logger both throw.
    java.io.PrintStream err = System.err;
    Logger log = Logger.getLogger("org.jtensor.buffer");
    Handler throwing = new Handler() {
      @Override public void publish(LogRecord r) {
        throw new IllegalStateException("the handler refuses");
      }
      @Override public void flush() {}
      @Override public void close() {}
    };
    log.addHandler(throwing);
    System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()) {
      @Override public void println(Object x) {
        throw new IllegalStateException("System.err refuses");
      }
    });
    try {
      gcUntil(() -> exported(overReleased) == 0, "the over-released storage's buffer was released");
    } finally {
      System.setErr(err);
      log.removeHandler(throwing);
    }
    assertEquals(before, allocated());
    garbageExport(4096);  // the next buffer's storage still comes back: the thread went on
    gcUntil(() -> allocated() == before && releaseThread() != null, "a later buffer's storage came back");
    assertTrue(releaseThread().isAlive());
  }

  /** A storage whose buffer's release throws ("released more times than it was retained"): its bytes are already free. */
  private static StorageImpl overReleasedExport() throws ReflectiveOperationException {
    Storage s = Storage.allocate(4096, Device.CPU);
    StorageImpl impl = impl(s);
    s.asByteBuffer();  // dropped at once, never read
    impl.release();  // one release too many: the buffer's own will throw
    s.close();  // frees the bytes
    assertEquals(1, exported(impl));
    return impl;
  }

  @Test
  void anAllocationOnTheReleaseThreadDoesNotWaitForItself() throws InterruptedException {
    // A wrapped storage's release (user code, on the release thread) allocates and is refused while
    // another buffer's storage waits behind it: a wait there waits for this very thread (30 s).
    settle();
    CountDownLatch go = new CountDownLatch(1), done = new CountDownLatch(1);
    AtomicReference<Throwable> refusal = new AtomicReference<>();
    BytePointer p = new BytePointer(64);
    Storage w = Storage.wrap(p.address(), 64, () -> {
      try {
        go.await(20, TimeUnit.SECONDS);
        Tensor.empty(new long[] {REFUSED}, DType.INT8).close();
      } catch (Throwable e) {
        refusal.set(e);
      }
      p.deallocate();
      done.countDown();
    });
    w.asByteBuffer();
    w.close();
    long before = allocated();
    gcUntil(() -> releaseBusy(), "the wrapped storage's release started");
    WeakReference<ByteBuffer> behind = garbageExport(4096);
    gcUntil(() -> behind.get() == null, "the other buffer was found garbage");
    go.countDown();
    assertTrue(done.await(20, TimeUnit.SECONDS), "the release thread's refused allocation waited for its own releases");
    assertTrue(refusal.get() instanceof TensorOutOfMemoryException, String.valueOf(refusal.get()));
    gcUntil(() -> allocated() == before, "the storage behind it came back");
  }

  /** Lets garbage buffers of earlier tests come back first, so none waits behind a release blocked here. */
  private static void settle() throws InterruptedException {
    long seen;
    int still = 0;
    for (int i = 0; i < 200 && still < 3; i++) {
      seen = releases();
      System.gc();
      Thread.sleep(20);
      still = releases() == seen ? still + 1 : 0;
    }
  }

  /** Whether the release thread is inside a release (parked in user code here). */
  private static boolean releaseBusy() {
    Thread t = releaseThread();
    if (t == null) return false;
    for (StackTraceElement f : t.getStackTrace()) if (f.getClassName().startsWith("org.jtensor.memory.BufferExportsHostileTest")) return true;
    return false;
  }

  @Test
  void aRefusalReturnsAtOnceWhileAWrappedStoragesReleaseIsBlocked() throws InterruptedException {
    // Buffers still held and one wrapped storage's release blocked in user code: nothing the refusal
    // could get back is on its way (a wrapped storage's bytes are not the allocator's), so it
    // returns while the release is still blocked. It waited for the release before.
    settle();
    long before = allocated();
    BlockedRelease blocked = new BlockedRelease();
    try {
      refuseWhileHoldingABuffer(blocked);
    } finally {
      blocked.finish();
    }
    gcUntil(() -> allocated() == before, "the held buffer's storage came back once it was garbage");
  }

  private static void refuseWhileHoldingABuffer(BlockedRelease blocked) {
    try (Tensor t = Tensor.zeros(1024)) {
      ByteBuffer held = t.asByteBuffer();
      assertThrows(TensorOutOfMemoryException.class, () -> Tensor.empty(new long[] {REFUSED}, DType.INT8));
      assertEquals(1, blocked.unblock.getCount());
      assertFalse(blocked.timedOut.get(), "the refusal waited for a release blocked in user code");
      assertEquals(0f, held.getFloat(0));
    }
  }

  @Test
  void aThreadInterruptedWhileItWaitsIsRefusedAndKeepsItsInterrupt() throws InterruptedException {
    settle();
    long before = allocated();
    BlockedRelease blocked = new BlockedRelease();
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    AtomicBoolean keptInterrupt = new AtomicBoolean();
    Thread waiter = new Thread(() -> {
      try {
        Tensor.empty(new long[] {REFUSED}, DType.INT8).close();
      } catch (Throwable e) {
        outcome.set(e);
      }
      keptInterrupt.set(Thread.currentThread().isInterrupted());
    });
    try {
      WeakReference<ByteBuffer> behind = garbageExport(1 << 16);  // its storage waits behind the blocked release
      gcUntil(() -> behind.get() == null, "the buffer was found garbage");
      waiter.start();
      for (int i = 0; i < 2000 && !waitingForReleases(waiter); i++) Thread.sleep(5);
      assertTrue(waitingForReleases(waiter), "the refused allocation waits for the storage on its way");
      waiter.interrupt();
      waiter.join(20_000);
      assertFalse(waiter.isAlive());
      assertTrue(outcome.get() instanceof TensorOutOfMemoryException, String.valueOf(outcome.get()));
      assertTrue(keptInterrupt.get(), "the interrupt survived the refusal");
      assertEquals(1, blocked.unblock.getCount(), "refused before the release it waited for");
    } finally {
      blocked.finish();
    }
    gcUntil(() -> allocated() == before, "the storage behind the blocked release came back");
  }

  private static boolean waitingForReleases(Thread t) {
    Thread.State s = t.getState();
    if (s != Thread.State.TIMED_WAITING && s != Thread.State.WAITING) return false;
    for (StackTraceElement f : t.getStackTrace()) if (f.getClassName().equals("org.jtensor.core.BufferExports")) return true;
    return false;
  }

  @Test
  void aRefusalAfterGarbageBuffersCameBackCountsTheRefusalAndOneRetryNotOnePerRelease() throws InterruptedException {
    long before = allocated();
    boolean growth = LeakDetector.collectsOnGrowth();
    LeakDetector.setCollectOnGrowth(false);  // no collection meanwhile: all 64 are on the way at the refusal
    try {
      for (int i = 0; i < 64; i++) garbageExport(4096);
      long ooms = stat("num_ooms");
      assertThrows(TensorOutOfMemoryException.class, () -> Tensor.empty(new long[] {REFUSED}, DType.INT8));
      long counted = stat("num_ooms") - ooms;
      assertEquals(before, allocated(), "every garbage buffer's storage came back before the refusal");
      // The refusal and one retry after the releases (a retry still counts: the native allocator
      // counts every refusal). It retried after each release it woke for, and counted each (this
      // test did not catch that in the run made: the releases came faster than the waiter woke).
      assertTrue(counted >= 1 && counted <= 2, counted + " num_ooms for one refused tensor");
    } finally {
      LeakDetector.setCollectOnGrowth(growth);
    }
  }

  @Test
  void aRefusalThatWaitedThroughSeveralReleasesCountsTheRefusalAndOneRetry() throws InterruptedException {
    // A waiter woken by each release retried after each: here two releases come apart (the second
    // blocked until the waiter has retried once), and the refused tensor counted three num_ooms.
    settle();
    long before = allocated();
    BlockedRelease first = new BlockedRelease();
    WeakReference<ByteBuffer> behind = garbageExport(1 << 16);  // an allocator's storage on its way, behind the first
    gcUntil(() -> behind.get() == null, "the buffer was found garbage");
    BlockedRelease second = new BlockedRelease(false);
    long ooms = stat("num_ooms");
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        Tensor.empty(new long[] {REFUSED}, DType.INT8).close();
      } catch (Throwable e) {
        outcome.set(e);
      }
    });
    try {
      waiter.start();
      for (int i = 0; i < 2000 && !waitingForReleases(waiter); i++) Thread.sleep(5);
      first.finish();
      for (int i = 0; i < 600 && waiter.isAlive() && !(waitingForReleases(waiter) && stat("num_ooms") - ooms >= 2); i++) {
        Thread.sleep(5);
      }
    } finally {
      first.finish();
      second.finish();
    }
    waiter.join(20_000);
    assertTrue(outcome.get() instanceof TensorOutOfMemoryException, String.valueOf(outcome.get()));
    assertEquals(2, stat("num_ooms") - ooms, "the refusal and one retry once every storage on the way came back");
    gcUntil(() -> allocated() == before, "the storage on its way came back");
  }

  @Test
  void resize_IsRefusedWhileASliceOfTheBufferLivesAndWorksOnceItIsCollected() throws Exception {
    long before = allocated();
    try (Storage s = Storage.allocate(4096, Device.CPU)) {
      StorageImpl impl = impl(s);
      ByteBuffer slice = s.asByteBuffer().slice(16, 16);  // the root is garbage but for the slice
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.resize_(8192));
      assertTrue(e.getMessage().startsWith("resize_(): a ByteBuffer"), e.getMessage());
      for (int i = 0; i < 5; i++) System.gc();
      assertThrows(IllegalStateException.class, () -> s.resize_(8192), "the slice keeps its root");
      assertEquals(1, exported(impl));
      java.lang.ref.Reference.reachabilityFence(slice);
      slice = null;
      gcUntil(() -> exported(impl) == 0, "the export was given back");
      s.resize_(8192);
      assertEquals(8192, s.nbytes());
      assertEquals(8192, s.asByteBuffer().capacity());  // dropped: it gives the storage back once collected
      assertEquals(1, exported(impl));
    }
    gcUntil(() -> allocated() == before, "the resized storage came back");
  }

  @Test
  void underEveryLeakLevelGarbageBuffersDoNotRunALimitOut() throws InterruptedException {
    // DISABLED collects in DeviceMemory itself (the leak collector tracks nothing), the others in the leak collector.
    LeakLevel level = LeakDetector.level();
    long limit = Memory.memoryLimit(Device.CPU), before = allocated();
    for (LeakLevel l : LeakLevel.values()) {
      LeakDetector.setLevel(l);
      Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU) + 64 * MiB);
      try {
        for (int i = 0; i < 40; i++) {
          try (Tensor t = Tensor.full(new long[] {MiB}, (double) i)) {  // 4 MiB
            assertEquals((float) i, t.asByteBuffer().getFloat(4 * 4321), l + " " + i);
          }
        }
      } finally {
        Memory.setMemoryLimit(Device.CPU, limit);
        LeakDetector.setLevel(level);
      }
    }
    gcUntil(() -> allocated() == before, "every storage came back");
  }

  @Test
  void threadsRacingUnderALimitWithBuffersSlicesViewsAndResizeGetValuesOrOutOfMemoryOnly() throws Exception {
    long before = allocated(), limit = Memory.memoryLimit(Device.CPU);
    List<Throwable> wrong = new CopyOnWriteArrayList<>();
    AtomicInteger served = new AtomicInteger(), refused = new AtomicInteger();
    Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU) + 64 * MiB);
    try {
      Thread[] threads = new Thread[3];
      for (int n = 0; n < threads.length; n++) {
        int id = n;
        threads[n] = new Thread(() -> {
          for (int i = 0; i < 40; i++) {
            float v = 100 * id + i;
            try (Tensor t = Tensor.full(new long[] {MiB}, v)) {
              ByteBuffer b = t.asByteBuffer();
              float seen = switch (i % 4) {
                case 0 -> b.getFloat(4 * 999);
                case 1 -> b.slice(4096, 4096).order(ByteOrder.LITTLE_ENDIAN).getFloat(8);
                case 2 -> b.duplicate().order(ByteOrder.LITTLE_ENDIAN).getFloat(4 * 12345);
                default -> {
                  try (Tensor view = Tensor.fromBuffer(b, DType.FLOAT32, MiB); Tensor one = view.select(0, 7)) {
                    yield (float) one.item();
                  }
                }
              };
              if (seen != v) wrong.add(new AssertionError("thread " + id + " step " + i + ": " + seen + " for " + v));
              try (Storage s = t.untypedStorage()) {
                s.resize_(8);
                wrong.add(new AssertionError("resize_ of an exported storage went through"));
              } catch (IllegalStateException expected) {
                if (!expected.getMessage().startsWith("resize_(): ")) wrong.add(expected);
              }
              served.incrementAndGet();
            } catch (TensorOutOfMemoryException e) {
              refused.incrementAndGet();
            } catch (Throwable e) {
              wrong.add(e);
            }
          }
        });
        threads[n].start();
      }
      for (Thread t : threads) t.join(120_000);
      for (Thread t : threads) assertFalse(t.isAlive(), "a thread is still allocating");
    } finally {
      Memory.setMemoryLimit(Device.CPU, limit);
    }
    assertTrue(wrong.isEmpty(), wrong.toString());
    assertTrue(served.get() > 0, served + " served, " + refused + " refused");
    gcUntil(() -> allocated() == before, "every storage came back");
  }

  @Test
  @ExpectsLeakReports
  void aLeakedViewOverAnExportedBufferGivesItsSourceBack() throws InterruptedException {
    // fromBuffer(asByteBuffer()) left unclosed: the leak detector frees the view, whose release held
    // the buffer; the detector's record of the leak kept that release (and so the buffer and the
    // source's 4 MiB) until its thread's registry next compacted, after the thread's end not at all.
    long before = allocated();
    Thread leaker = new Thread(() -> {
      try (Tensor src = Tensor.full(new long[] {MiB}, 3.0)) {
        Tensor.fromBuffer(src.asByteBuffer(), DType.FLOAT32, MiB);  // never closed
      }
    });
    leaker.start();
    leaker.join();
    gcUntil(() -> {
      LeakDetector.collect();
      return allocated() == before;
    }, "the source storage came back");
  }
}
