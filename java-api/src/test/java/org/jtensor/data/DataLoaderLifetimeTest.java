package org.jtensor.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import org.jtensor.Device;
import org.jtensor.LogCapture;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.cuda.Cuda;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * Who owns what: a batch is lent until the iterator moves on; a loop left early keeps its prefetched
 * batches only until its iterator or loader closes, which also stops the workers; samples and a
 * dataset's intermediates never reach the caller's scope; a failing get is reported with its index
 * and closes the iterator; pinMemory without CUDA warns and does nothing, as PyTorch. Every test also
 * runs under MemoryAccounting: allocated bytes back to the start, no leak reported.
 */
class DataLoaderLifetimeTest extends ScopedTest {
  /** Sample i: a 1 KiB row made through intermediates; counts its gets; fails at index `failAt`. */
  static final class Rows implements Dataset<Tensor> {
    final AtomicLong gets = new AtomicLong();
    final long n, failAt;

    Rows(long n, long failAt) {
      this.n = n;
      this.failAt = failAt;
    }

    @Override
    public Tensor get(long index) {
      gets.incrementAndGet();
      if (index == failAt) throw new IllegalStateException("no sample " + index + " here");
      return Tensor.arange(256).add(index).mul(2).to(org.jtensor.DType.FLOAT32);
    }

    @Override
    public long size() {
      return n;
    }
  }

  private static long allocated() {
    return Memory.memoryAllocated(Device.CPU);
  }

  @Test
  void aBatchIsLentUntilTheIteratorMovesOn() {
    try (DataLoader<Tensor> loader = DataLoader.builder(new Rows(6, -1)).batchSize(2).build();
         BatchIterator it = loader.iterator()) {
      Batch first = it.next();
      Tensor kept = first.get(0).clone();
      it.next();
      String m = assertThrows(IllegalStateException.class, () -> first.get(0).sum()).getMessage();
      assertTrue(m.contains("closed"), m);
      assertEquals(2 * 4 * 256, kept.numel() * kept.elementSize(), "a clone outlives its batch");
      it.next();
      assertFalse(it.hasNext());
      assertThrows(NoSuchElementException.class, it::next);
    }
  }

  @Test
  void leavingALoopEarlyAndClosingTheIteratorStopsTheWorkersAndClosesPrefetchedBatches() throws InterruptedException {
    long before = allocated();
    Rows data = new Rows(400, -1);
    DataLoader<Tensor> loader = DataLoader.builder(data).batchSize(4).numWorkers(2).prefetchFactor(4).build();
    try (BatchIterator it = loader.iterator()) {
      it.next();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (data.gets.get() < 8 * 4 && System.nanoTime() < deadline) Thread.sleep(5);  // the workers fill the prefetch queue
      assertTrue(allocated() > before + 4 * 4096, "prefetched batches are allocated");
    }
    long gets = data.gets.get();
    assertTrue(gets <= 9 * 4, "no more than the 8 prefetched batches and the one taken were loaded: " + gets);
    assertEquals(before, allocated(), "closing the iterator closed the lent and prefetched batches");
    Thread.sleep(50);
    assertEquals(gets, data.gets.get(), "no worker loads after close");
    assertTrue(workerThreadsGone(), "the worker threads ended");
  }

  @Test
  void closingTheLoaderClosesALoopLeftEarly() {
    long before = allocated();
    try (DataLoader<Tensor> loader = DataLoader.builder(new Rows(40, -1)).batchSize(4).numWorkers(2).build()) {
      for (Batch b : loader) {
        assertEquals(4, b.get(0).size(0));
        break;  // the iterator is left open
      }
      assertTrue(allocated() > before);
    }
    assertEquals(before, allocated(), "loader.close() closed the open iterator");
  }

  @Test
  void samplesAndIntermediatesNeverReachTheCallersScope() {
    for (int workers : new int[] {0, 2}) {
      try (TensorScope mine = TensorScope.open(); DataLoader<Tensor> loader = DataLoader.builder(new Rows(10, -1)).batchSize(3).numWorkers(workers).build()) {
        int handles = mine.size();
        long batches = 0;
        for (Batch b : loader) batches += b.get(0).size(0) > 0 ? 1 : 0;
        assertEquals(4, batches);
        assertEquals(handles, mine.size(), workers + " workers: the loader's own scope closed what the dataset and collate made");
      }
    }
  }

  @Test
  void aFailingGetIsReportedWithItsIndexAndClosesTheIterator() {
    long before = allocated();
    for (int workers : new int[] {0, 1, 3}) {
      DataLoader.Builder<Tensor> b = DataLoader.builder(new Rows(40, 13)).batchSize(4).numWorkers(workers);
      try (DataLoader<Tensor> loader = b.build(); BatchIterator it = loader.iterator()) {
        List<Long> served = new ArrayList<>();
        DataLoaderException e = assertThrows(DataLoaderException.class, () -> {
          while (it.hasNext()) served.add((long) it.next().get(0).getDouble(0, 0));
        });
        assertEquals(13, e.index());
        assertEquals(3, e.batch());
        assertTrue(e.getMessage().contains("dataset.get(13) failed") && e.getMessage().contains("no sample 13 here"), e.getMessage());
        assertTrue(e.getMessage().contains(workers == 0 ? Thread.currentThread().getName() : "jtensor-data-worker-"), e.getMessage());
        assertSame(IllegalStateException.class, e.getCause().getClass());
        assertEquals(List.of(0L, 8L, 16L), served, workers + " workers: the batches before the failing one, in order");
        assertFalse(it.hasNext(), "the iterator closed itself");
      }
      assertEquals(before, allocated(), workers + " workers: nothing left allocated");
    }
  }

  @Test
  void pinMemoryPinsOnCudaAndWarnsWithoutIt() {
    List<String> warnings;
    try (LogCapture logs = LogCapture.of("org.jtensor.data");
         DataLoader<Tensor> loader = DataLoader.builder(new Rows(4, -1)).batchSize(2).pinMemory(true).numWorkers(1).build()) {
      for (Batch b : loader) assertEquals(Cuda.isAvailable(), b.get(0).isPinned());
      warnings = List.copyOf(logs.messages());
    }
    if (Cuda.isAvailable()) {
      assertEquals(List.of(), warnings);
    } else {
      assertEquals(1, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).contains("'pinMemory' is set but CUDA is not available") && warnings.get(0).contains("pinned memory won't be used"),
          warnings.get(0));
    }
  }

  private static boolean workerThreadsGone() throws InterruptedException {
    for (int i = 0; i < 100; i++) {  // awaitTermination returns as the last worker leaves its loop, a moment before it dies
      if (Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("jtensor-data-worker-"))) return true;
      Thread.sleep(10);
    }
    return false;
  }
}
