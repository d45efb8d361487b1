package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtensor.data.Batch;
import org.jtensor.data.Collate;
import org.jtensor.data.DataLoader;
import org.jtensor.data.DataLoaderException;
import org.jtensor.data.Dataset;
import org.jtensor.data.BatchIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Printing and data loading against PyTorch 2.13's own output for the same inputs (each expected string printed by torch). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrintAndLoaderHostileTest extends ScopedTest {
  @Test
  void scientificModeRoundsTheExactValueAsPython() {
    // Python's '{:.4e}' rounds the double's exact binary value; String.format rounded its shortest decimal
    // form again: 2.00025 (2.000249999...) printed 2.0003e+00 and 4.9e-324 printed 4.9000e-324
    assertEquals("tensor([2.0002e+00, 1.0000e-05], dtype=torch.float64)", Tensor.fromArray(new double[] {2.00025, 1e-5}).toString());
    assertEquals("tensor([4.9407e-324,  1.0000e+00], dtype=torch.float64)", Tensor.fromArray(new double[] {Double.MIN_VALUE, 1.0}).toString());
    assertEquals("tensor(4.9407e-324, dtype=torch.float64)", Tensor.fromArray(new double[] {Double.MIN_VALUE}).sum().toString());
    assertEquals("tensor([1.0001e+00, 1.0000e-05], dtype=torch.float64)", Tensor.fromArray(new double[] {1.00005, 1e-5}).toString());
    assertEquals("tensor([1.7977e+308, -2.5000e-08], dtype=torch.float64)", Tensor.fromArray(new double[] {Double.MAX_VALUE, -2.5e-8}).toString());
    assertEquals("tensor([1.0000e+00, 1.0000e+08], dtype=torch.float64)", Tensor.fromArray(new double[] {1.0, 1e8 + 2}).toString());
    assertEquals("tensor([       nan, 1.0000e+09])", Tensor.fromArray(new float[] {Float.NaN, 1e9f}).toString());
    assertEquals("tensor([3.4028e+38, 1.4013e-45])", Tensor.fromArray(new float[] {Float.MAX_VALUE, Float.MIN_VALUE}).toString());
  }

  @Test
  void extremesEmptiesZerosAndExpandedSummaries() {
    assertEquals("tensor([-9223372036854775808,  9223372036854775807])", Tensor.fromArray(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}).toString());
    assertEquals("tensor([], size=(2, 0, 3), dtype=torch.int8)", Tensor.zeros(new long[] {2, 0, 3}, DType.INT8).toString());
    assertEquals("tensor([0., -0.])", Tensor.fromArray(new float[] {0f, -0f}).toString());
    assertEquals("tensor([2.0002, 3.0000], dtype=torch.float64)", Tensor.fromArray(new double[] {2.00025, 3.0}).toString());
    Tensor wide = Tensor.fromArray(new float[] {1, 2}).expand(1000000, 2);
    org.jtensor.memory.Memory.resetPeakMemoryStats(Device.CPU);
    long before = org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.current");
    assertEquals("tensor([[1., 2.],\n        [1., 2.],\n        [1., 2.],\n        ...,\n        [1., 2.],\n        [1., 2.],\n        [1., 2.]])",
        wide.toString());
    long peak = org.jtensor.memory.Memory.memoryStats(Device.CPU).get("allocated_bytes.all.peak");
    assertTrue(peak - before < (1 << 20), "printing a 16 MB expanded view allocated " + (peak - before) + " bytes");
    assertEquals("tensor([1., 1., 1.,  ..., 1., 1., 1.])", Tensor.ones(1).expand(1L << 40).toString());
    assertEquals("tensor([[1., 1., 1.,  ..., 1., 1., 1.],\n        [1., 1., 1.,  ..., 1., 1., 1.],\n        [1., 1., 1.,  ..., 1., 1., 1.],\n"
        + "        ...,\n        [1., 1., 1.,  ..., 1., 1., 1.],\n        [1., 1., 1.,  ..., 1., 1., 1.],\n        [1., 1., 1.,  ..., 1., 1., 1.]], dtype=torch.bfloat16)",
        Tensor.ones(new long[] {1, 1}, DType.BFLOAT16).expand(1L << 31, 1L << 31).toString());
    assertEquals("tensor([   inf,   -inf, 65504.], dtype=torch.float16)",
        Tensor.fromArray(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 65504f}).to(DType.FLOAT16).toString());
  }

  @Test
  void defaultCollateOfAnIntThenAFloatIsFloat32AsTorchTensor() {
    // default_collate([1, 2.5]) is torch.tensor([1, 2.5]) = tensor([1.0000, 2.5000]); the 2.5 was truncated to 2 in an int64 batch
    try (Batch b = Collate.defaultCollate(List.of(1, 2.5))) {
      assertEquals(DType.FLOAT32, b.get(0).dtype());
      assertArrayEquals(new float[] {1f, 2.5f}, b.get(0).toFloatArray());
      assertEquals("tensor([1.0000, 2.5000])", b.get(0).toString());
    }
    try (Batch b = Collate.defaultCollate(List.of(List.of(1L, 0.5), List.of(2L, 3)))) {  // [tensor([1, 2]), tensor([0.5, 3.], float64)]
      assertEquals("tensor([1, 2])", b.get(0).toString());
      assertEquals("tensor([0.5000, 3.0000], dtype=torch.float64)", b.get(1).toString());
    }
  }

  @Test
  void defaultCollateTakesBooleansBesideNumbersAsTorchTensor() {
    // isinstance(True, int): default_collate([1, True]) is tensor([1, 1]), [True, 1] too, [2.5, True] tensor([2.5, 1.], float64),
    // [True, 2.5] tensor([1.0000, 2.5000]); each was refused ("every sample must be a Number as the first is")
    assertEquals("tensor([1, 1])", Collate.defaultCollate(List.of(1, true)).get(0).toString());
    assertEquals("tensor([1, 1])", Collate.defaultCollate(List.of(true, 1L)).get(0).toString());
    assertEquals("tensor([2.5000, 1.0000], dtype=torch.float64)", Collate.defaultCollate(List.of(2.5, true)).get(0).toString());
    assertEquals("tensor([1.0000, 2.5000])", Collate.defaultCollate(List.of(true, 2.5)).get(0).toString());
    assertEquals("tensor([ True, False])", Collate.defaultCollate(List.of(true, false)).get(0).toString());
    String m = assertThrows(IllegalArgumentException.class, () -> Collate.defaultCollate(List.of(1, "a"))).getMessage();
    assertTrue(m.contains("defaultCollate()") && m.contains("java.lang.String"), m);
  }

  private static Dataset<Tensor> rows(long n, java.util.function.LongFunction<Tensor> get) {
    return new Dataset<>() {
      @Override
      public Tensor get(long index) {
        return get.apply(index);
      }

      @Override
      public long size() {
        return n;
      }
    };
  }

  private static boolean workersAlive() {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("jtensor-data-worker") && t.isAlive());
  }

  @Test
  void mismatchedShapesAndClosedSamplesAreRefusedOnWorkersWithoutLeaks() throws InterruptedException {
    long start = org.jtensor.memory.Memory.memoryAllocated(Device.CPU);
    Dataset<Tensor> ragged = rows(10, i -> Tensor.zeros(i == 4 ? 3 : 2));
    try (DataLoader<Tensor> loader = DataLoader.builder(ragged).batchSize(3).numWorkers(2).build()) {
      BatchIterator it = loader.iterator();
      it.next();
      DataLoaderException e = assertThrows(DataLoaderException.class, it::next);
      assertTrue(e.getMessage().contains("stack expects each tensor to be equal size") && e.getMessage().contains("batch 1"), e.getMessage());
      assertFalse(it.hasNext());
    }
    Tensor dead = Tensor.ones(2);
    dead.close();
    try (DataLoader<Tensor> loader = DataLoader.builder(rows(4, i -> dead)).batchSize(2).numWorkers(1).build()) {
      assertThrows(DataLoaderException.class, () -> loader.iterator().next());
    }
    assertEquals(start, org.jtensor.memory.Memory.memoryAllocated(Device.CPU));
  }

  @Test
  void theSameTensorTwiceAndUnevenBatchesTwice() {
    Tensor shared = Tensor.fromArray(new float[] {1, 2});
    Dataset<Tensor> same = rows(7, i -> shared);
    for (boolean dropLast : new boolean[] {false, true}) {
      DataLoader<Tensor> loader = DataLoader.builder(same).batchSize(3).dropLast(dropLast).numWorkers(2).build();
      for (int epoch = 0; epoch < 2; epoch++) {
        int k = 0;
        long rows = 0;
        for (Batch b : loader) {
          rows += b.get(0).shape()[0];
          assertEquals(k < 2 ? "tensor([[1., 2.],\n        [1., 2.],\n        [1., 2.]])" : "tensor([[1., 2.]])", b.get(0).toString());
          k++;
        }
        assertEquals(dropLast ? 2 : 3, k);
        assertEquals(dropLast ? 6 : 7, rows);
      }
    }
    assertFalse(shared.isClosed());
  }

  @Test
  void anEmptyShuffledDatasetAndALoopLeftEarlyStopTheWorkers() throws InterruptedException {
    // not shuffled: PyTorch refuses to shuffle an empty dataset (OptimizerDataHostileTest), and so does jtensor since session 32
    try (DataLoader<Tensor> loader = DataLoader.builder(rows(0, i -> Tensor.ones(1))).numWorkers(3).build()) {
      assertEquals(0, loader.size());
      assertFalse(loader.iterator().hasNext());
    }
    DataLoader<Tensor> loader = DataLoader.builder(rows(100, i -> Tensor.ones(4))).batchSize(2).numWorkers(3).build();
    for (Batch b : loader) {
      if (b.get(0).shape()[0] == 2) break;
    }
    loader.close();
    for (int i = 0; i < 50 && workersAlive(); i++) Thread.sleep(100);
    assertFalse(workersAlive(), "a closed loader's workers must end");
  }

  @Test
  void aDatasetNearLongMaxIsCountedWithoutOverflowAndANegativeSizeIsRefused() {
    // len(DataLoader(D(2**63 - 2), batch_size=4)) is 2305843009213693952; (n + 3) / 4 overflowed to a negative count and an empty epoch
    DataLoader<Tensor> huge = DataLoader.builder(rows(Long.MAX_VALUE - 1, i -> Tensor.scalar(i))).batchSize(4).build();
    assertEquals(2305843009213693952L, huge.size());
    try (BatchIterator it = huge.iterator()) {
      assertTrue(it.hasNext());
      assertArrayEquals(new long[] {0, 1, 2, 3}, it.next().get(0).toLongArray());
    }
    // PyTorch: ValueError: __len__() should return >= 0
    DataLoader<Tensor> negative = DataLoader.builder(rows(-5, i -> Tensor.scalar(i))).batchSize(2).build();
    String m = assertThrows(IllegalArgumentException.class, negative::size).getMessage();
    assertTrue(m.contains("size() should return >= 0") && m.contains("-5"), m);
    m = assertThrows(IllegalArgumentException.class, negative::iterator).getMessage();
    assertTrue(m.contains("size() should return >= 0") && m.contains("-5"), m);
  }

  @Test
  void anIteratorClosedFromAnotherThreadNeverHandsOutNull() throws InterruptedException {
    // close() may come from any thread; a batch skipped because of it came back from next() as null
    DataLoader<Tensor> loader = DataLoader.builder(rows(8, i -> Tensor.ones(3))).batchSize(2).numWorkers(1).build();
    int nulls = 0;
    for (int r = 0; r < 300; r++) {
      BatchIterator it = loader.iterator();
      java.util.concurrent.atomic.AtomicReference<Object> got = new java.util.concurrent.atomic.AtomicReference<>("nothing");
      Thread consumer = new Thread(() -> {
        try {
          got.set(it.next());
        } catch (java.util.NoSuchElementException e) {
          got.set(e);
        }
      });
      consumer.start();
      it.close();
      consumer.join(10000);
      assertFalse(consumer.isAlive(), "next() stuck after close()");
      if (got.get() == null) nulls++;
    }
    assertEquals(0, nulls, "next() returned null after a close() from another thread");
  }

  @Test
  void aCollateGivingOneTensorTwiceAndAnErrorOnAWorkerLeakNothing() {
    long start = org.jtensor.memory.Memory.memoryAllocated(Device.CPU);
    DataLoader<Tensor> twice = DataLoader.builder(rows(6, i -> Tensor.ones(2).mul(i))).batchSize(3).numWorkers(2).collate(s -> {
      Tensor x = Tensor.stack(s);
      return Batch.of(x, x);
    }).build();
    for (int epoch = 0; epoch < 2; epoch++) {
      int k = 0;
      for (Batch b : twice) {
        assertEquals(b.get(0).toString(), b.get(1).toString());
        assertEquals(k == 0 ? "tensor([[0., 0.],\n        [1., 1.],\n        [2., 2.]])" : "tensor([[3., 3.],\n        [4., 4.],\n        [5., 5.]])",
            b.get(1).toString());
        k++;
      }
      assertEquals(2, k);
    }
    DataLoader<Tensor> failing = DataLoader.builder(rows(6, i -> {
      if (i == 4) throw new AssertionError("sample 4 broke");
      return Tensor.ones(2);
    })).batchSize(2).numWorkers(2).build();
    BatchIterator it = failing.iterator();
    it.next();
    it.next();
    AssertionError e = assertThrows(AssertionError.class, it::next);
    assertEquals("sample 4 broke", e.getMessage());
    assertFalse(it.hasNext());
    assertEquals(start, org.jtensor.memory.Memory.memoryAllocated(Device.CPU));
  }
}
