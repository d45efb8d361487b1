package org.jtensor;

import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The memory-accounting rule every test class runs under (registered for all of them through
 * META-INF/services, as Arrow's tests check their allocators): each test must end with the CPU
 * allocator's allocated_bytes.all.current (plus wrapped_bytes.current) where it started, and each class with no leak
 * reported by the leak detector (tests marked {@link ExpectsLeakReports} excepted). A test that
 * breaks the rule fails, named by JUnit.
 */
public final class MemoryAccounting implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(MemoryAccounting.class);

  /** The caching allocator's bytes handed out plus the bytes of wrapped storages still referenced. */
  private static long allocated() {
    java.util.Map<String, Long> stats = Memory.memoryStats(Device.CPU);
    return stats.get("allocated_bytes.all.current") + stats.getOrDefault("wrapped_bytes.current", 0L);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put("leaks", LeakDetector.leaksReported());
    context.getStore(NS).put("excused", 0L);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("bytes", allocated());
    context.getStore(NS).put("leaksBefore", LeakDetector.leaksReported());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NS);
    long before = store.get("bytes", Long.class);
    if (context.getRequiredTestMethod().isAnnotationPresent(ExpectsLeakReports.class)) {
      ExtensionContext.Store classStore = context.getParent().orElseThrow().getStore(NS);
      long excused = LeakDetector.leaksReported() - store.get("leaksBefore", Long.class);
      classStore.put("excused", classStore.get("excused", Long.class) + excused);
    }
    long now = allocated();
    if (now != before) {
      throw new AssertionError(context.getDisplayName() + " left " + (now - before)
          + " bytes allocated (allocated_bytes.all.current + wrapped_bytes.current " + before + " -> " + now
          + "): a tensor was not closed");
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    ExtensionContext.Store store = context.getStore(NS);
    long expected = store.get("leaks", Long.class) + store.get("excused", Long.class);
    for (int i = 0; i < 3; i++) {  // let anything left unreachable be collected and reported now, not in the next class
      System.gc();
      Thread.sleep(20);
    }
    long reported = LeakDetector.leaksReported();
    if (reported != expected) {
      throw new AssertionError(context.getDisplayName() + ": the leak detector reported " + (reported - expected)
          + " tensor(s) garbage-collected without close()");
    }
  }
}
