package org.jtensor.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * PyTorch's timeout: a worker's batch not there in time fails next() naming the wait, and close()
 * returns after at most the timeout even while a sample hangs; the batch that hung is closed by its
 * worker when it finally comes (bytes back to the start, no leak reported).
 */
class DataLoaderTimeoutTest extends ScopedTest {
  /** Sample i is a 1 KiB row; sample `stuck` waits until the test releases it. */
  private static final class Stuck implements Dataset<Tensor> {
    // lastMade: the stuck batch's last sample (stuck + 1) exists, so its bytes are out until the batch is closed
    final CountDownLatch release = new CountDownLatch(1), reached = new CountDownLatch(1), lastMade = new CountDownLatch(1);
    final long stuck;

    Stuck(long stuck) {
      this.stuck = stuck;
    }

    @Override
    public Tensor get(long index) {
      if (index == stuck) {
        reached.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      Tensor t = Tensor.full(new long[] {256}, (double) index, DType.FLOAT32);
      if (index == stuck + 1) lastMade.countDown();
      return t;
    }

    @Override
    public long size() {
      return 6;
    }
  }

  /** Until the stuck batch's worker has closed what it made (it runs after the test's calls return). */
  private static void awaitBytesBack(long start, Stuck data) throws InterruptedException {
    // else the bytes may read `start` before the released worker has made anything (they then leaked past the test)
    assertTrue(data.lastMade.await(20, TimeUnit.SECONDS), "the stuck batch was finished");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (Memory.memoryAllocated(Device.CPU) != start && System.nanoTime() < deadline) Thread.sleep(5);
    assertEquals(start, Memory.memoryAllocated(Device.CPU), "the batch that came after the timeout was closed by its worker");
  }

  @Test
  void aBatchLateBeyondTheTimeoutFailsNextAndIsClosedWhenItComes() throws Exception {
    long start = Memory.memoryAllocated(Device.CPU);
    Stuck data = new Stuck(2);
    // 2 s, not 0.2: on a loaded 2-core machine the first batch (a cold worker) once took longer than 0.2 s
    try (DataLoader<Tensor> loader = DataLoader.builder(data).batchSize(2).numWorkers(1).timeout(2.0).build();
         BatchIterator it = loader.iterator()) {
      assertEquals(0.0, it.next().get(0).toDoubleArray()[0]);
      long t0 = System.nanoTime();
      DataLoaderException e = assertThrows(DataLoaderException.class, it::next);
      assertTrue(e.getMessage().startsWith("DataLoader timed out after 2.0 seconds"), e.getMessage());
      long waited = System.nanoTime() - t0;  // one timeout, not a second one in next()'s own close()
      assertTrue(waited < TimeUnit.MILLISECONDS.toNanos(3500), "next() took " + waited / 1e9 + " s");
      assertEquals(1, e.batch());
      assertFalse(it.hasNext(), "the iterator closed itself");
    } finally {
      data.release.countDown();
    }
    awaitBytesBack(start, data);
  }

  @Test
  void closeReturnsAfterTheTimeoutWhileASampleHangs() throws Exception {
    long start = Memory.memoryAllocated(Device.CPU);
    Stuck data = new Stuck(0);
    try (DataLoader<Tensor> loader = DataLoader.builder(data).batchSize(2).numWorkers(2).timeout(0.3).build()) {
      BatchIterator it = loader.iterator();
      assertTrue(it.hasNext());
      Thread consumer = new Thread(() -> assertThrows(DataLoaderException.class, it::next));  // starts the workers; times out
      consumer.start();
      assertTrue(data.reached.await(20, TimeUnit.SECONDS));
      consumer.join(TimeUnit.SECONDS.toMillis(20));
      assertFalse(consumer.isAlive());
      long t0 = System.nanoTime();
      loader.close();  // without a timeout this would wait for the stuck sample
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10));
    } finally {
      data.release.countDown();
    }
    awaitBytesBack(start, data);
  }

  @Test
  void badTimeoutsAreRefused() {
    Stuck data = new Stuck(-1);
    String m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(data).timeout(-1)).getMessage();
    assertTrue(m.contains("timeout option should be non-negative"), m);
    assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(data).timeout(Double.NaN));
    m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(data).timeout(1).build()).getMessage();
    assertTrue(m.contains("timeout option could only be specified with numWorkers > 0"), m);
  }
}
