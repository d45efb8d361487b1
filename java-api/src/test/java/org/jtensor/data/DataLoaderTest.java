package org.jtensor.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * What the loader serves: PyTorch's batching (len(loader), the last partial batch, drop_last,
 * checked against torch 2.13), one randperm per epoch, the same batches for a seed with 0, 1 and 4
 * workers, TensorDataset's indexSelect path equal to stacking its samples, default_collate's
 * rules, and PyTorch's messages for bad options.
 */
class DataLoaderTest extends ScopedTest {
  /** Sample i: [i, then 3 uniform draws from a generator seeded by (seed, epoch, i)]: random, but not by thread. */
  static final class Noisy implements Dataset<Tensor> {
    final long n;
    volatile long epoch;
    final Set<String> threads = ConcurrentHashMap.newKeySet();

    Noisy(long n) {
      this.n = n;
    }

    @Override
    public Tensor get(long index) {
      threads.add(Thread.currentThread().getName());
      Generator g = new Generator(1_000_003L * epoch + index);
      Tensor noise = Tensor.rand(new long[] {3}, DType.FLOAT64, g);
      return Tensor.cat(List.of(Tensor.full(new long[] {1}, index, DType.FLOAT64), noise.mul(2).sub(1)));  // intermediates left to the loader's scope
    }

    @Override
    public long size() {
      return n;
    }
  }

  /** Every batch of `epochs` epochs as flat values, the loader closed after. */
  static List<double[]> epochs(DataLoader<?> loader, int epochs, Noisy data) {
    List<double[]> out = new ArrayList<>();
    try (loader) {
      for (int e = 0; e < epochs; e++) {
        if (data != null) data.epoch = e;
        for (Batch b : loader) {
          for (Tensor t : b.tensors()) out.add(t.toDoubleArray());
        }
      }
    }
    return out;
  }

  @Test
  void lenAndTheLastPartialBatchAreTorchs() {
    Tensor x = Tensor.arange(10), y = Tensor.arange(10).mul(2);
    TensorDataset ds = new TensorDataset(x, y);
    DataLoader<List<Tensor>> loader = DataLoader.builder(ds).batchSize(3).build();
    assertEquals(4, loader.size());
    assertEquals(3, DataLoader.builder(ds).batchSize(3).dropLast(true).build().size());
    assertEquals(10, DataLoader.builder(ds).build().size(), "batch size 1 by default");
    // torch: [b[0].tolist() for b in DataLoader(ds, batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    List<double[]> got = epochs(loader, 1, null);
    assertEquals(8, got.size());
    assertArrayEquals(new double[] {0, 1, 2}, got.get(0));
    assertArrayEquals(new double[] {0, 2, 4}, got.get(1));
    assertArrayEquals(new double[] {9}, got.get(6));
    assertArrayEquals(new double[] {18}, got.get(7));
    List<double[]> dropped = epochs(DataLoader.builder(ds).batchSize(3).dropLast(true).build(), 1, null);
    assertEquals(6, dropped.size());
    assertArrayEquals(new double[] {6, 7, 8}, dropped.get(4));
    assertEquals(0, DataLoader.builder(new TensorDataset(Tensor.zeros(0, 2))).batchSize(3).build().size());
    assertFalse(DataLoader.builder(new TensorDataset(Tensor.zeros(0, 2))).batchSize(3).build().iterator().hasNext());
  }

  @Test
  void anEpochIsOneRandpermOfTheGenerator() {
    TensorDataset ds = new TensorDataset(Tensor.arange(20));
    List<double[]> got = epochs(DataLoader.builder(ds).batchSize(8).shuffle(true).generator(new Generator(5)).build(), 2, null);
    Generator g = new Generator(5);
    for (int e = 0; e < 2; e++) {
      double[] perm = Tensor.randperm(20, g).toDoubleArray();
      assertArrayEquals(Arrays.copyOfRange(perm, 0, 8), got.get(3 * e));
      assertArrayEquals(Arrays.copyOfRange(perm, 8, 16), got.get(3 * e + 1));
      assertArrayEquals(Arrays.copyOfRange(perm, 16, 20), got.get(3 * e + 2));
    }
    assertFalse(Arrays.equals(got.get(0), got.get(3)), "each epoch draws a new order");
  }

  @Test
  void theSameBatchesForASeedWith0And1And4Workers() {
    List<List<double[]>> runs = new ArrayList<>();
    for (int workers : new int[] {0, 1, 4}) {
      Noisy data = new Noisy(103);
      DataLoader.Builder<Tensor> b = DataLoader.builder(data).batchSize(8).shuffle(true).generator(new Generator(42)).numWorkers(workers);
      if (workers > 0) b.prefetchFactor(3);
      runs.add(epochs(b.build(), 3, data));
      if (workers == 0) assertEquals(Set.of(Thread.currentThread().getName()), data.threads, "0 workers: loaded on the caller's thread");
      else assertTrue(data.threads.stream().allMatch(t -> t.startsWith("jtensor-data-worker-")), "loaded by workers: " + data.threads);
      if (workers == 4) assertTrue(data.threads.size() > 1, "several workers took part: " + data.threads);
    }
    List<double[]> none = runs.get(0);
    assertEquals(3 * 13, none.size(), "13 batches an epoch, the last of 7");
    for (int r = 1; r < runs.size(); r++) {
      assertEquals(none.size(), runs.get(r).size());
      for (int i = 0; i < none.size(); i++) assertArrayEquals(none.get(i), runs.get(r).get(i), 0, "batch " + i + " of run " + r);
    }
    TreeSet<Long> seen = new TreeSet<>();
    for (int i = 0; i < 13; i++) {
      double[] flat = none.get(i);
      for (int s = 0; s < flat.length; s += 4) assertTrue(seen.add((long) flat[s]), "index " + flat[s] + " served once an epoch");
    }
    assertEquals(103, seen.size());
    assertNotEquals(none.get(0)[1], none.get(13)[1], "epoch 1's augmentation differs from epoch 0's");
  }

  @Test
  void aTensorDatasetBatchIsItsStackedSamples() {
    Generator g = new Generator(3);
    Tensor x = Tensor.randn(new long[] {11, 2, 3}, DType.FLOAT32, g), y = Tensor.randint(0, 5, new long[] {11}, g);
    TensorDataset ds = new TensorDataset(x, y);
    for (int workers : new int[] {0, 2}) {
      try (DataLoader<List<Tensor>> loader = DataLoader.builder(ds).batchSize(4).shuffle(true).generator(new Generator(9)).numWorkers(workers).build()) {
        long[] perm = Tensor.randperm(11, new Generator(9)).toLongArray();
        int k = 0;
        for (Batch b : loader) {
          List<List<Tensor>> samples = new ArrayList<>();
          for (int i = 4 * k; i < Math.min(11, 4 * k + 4); i++) samples.add(ds.get(perm[i]));
          Batch stacked = Collate.defaultCollate(samples);
          assertEquals(2, b.size());
          for (int f = 0; f < 2; f++) {
            assertArrayEquals(stacked.get(f).shape(), b.get(f).shape());
            assertEquals(stacked.get(f).dtype(), b.get(f).dtype());
            assertTrue(stacked.get(f).equal(b.get(f)), "batch " + k + " field " + f);
          }
          k++;
        }
        assertEquals(3, k);
      }
    }
  }

  @Test
  void defaultCollateFollowsTorch() {
    Batch numbers = Collate.defaultCollate(List.of(1, 2L, 3));
    assertEquals(DType.INT64, numbers.get(0).dtype());
    assertArrayEquals(new long[] {1, 2, 3}, numbers.get(0).toLongArray());
    assertEquals(DType.FLOAT64, Collate.defaultCollate(List.of(0.5, 1.5f)).get(0).dtype());
    assertEquals(DType.BOOL, Collate.defaultCollate(List.of(true, false)).get(0).dtype());
    Batch pairs = Collate.defaultCollate(List.of(List.of(Tensor.ones(2), 7L), List.of(Tensor.zeros(2), 8L)));
    assertArrayEquals(new long[] {2, 2}, pairs.get(0).shape());
    assertArrayEquals(new long[] {7, 8}, pairs.get(1).toLongArray());
    String m = assertThrows(IllegalArgumentException.class,
        () -> Collate.defaultCollate(List.of(List.of(Tensor.ones(2)), List.of(Tensor.ones(2), Tensor.ones(2))))).getMessage();
    assertTrue(m.contains("each element in list of batch should be of equal size"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Collate.defaultCollate(List.of("a", "b"))).getMessage();
    assertTrue(m.contains("defaultCollate()") && m.contains("java.lang.String") && m.contains("collate function"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Collate.defaultCollate(List.of(Tensor.ones(2), 3L))).getMessage();
    assertTrue(m.contains("must be a Tensor as the first is, got java.lang.Long"), m);
  }

  @Test
  void aCollateFunctionBatchesAnyType() {
    Dataset<String> words = new Dataset<>() {
      final String[] w = {"a", "bb", "ccc", "dddd", "eeeee"};

      @Override
      public String get(long index) {
        return w[(int) index];
      }

      @Override
      public long size() {
        return w.length;
      }
    };
    DataLoader<String> loader = DataLoader.builder(words).batchSize(2).numWorkers(2)
        .collate(s -> Batch.of(Tensor.fromArray(s.stream().mapToLong(String::length).toArray()))).build();
    List<double[]> got = epochs(loader, 1, null);
    assertEquals(3, got.size());
    assertArrayEquals(new double[] {3, 4}, got.get(1));
    assertArrayEquals(new double[] {5}, got.get(2));
  }

  @Test
  void badArgumentsAreRefusedNamingTheRule() {
    String m = assertThrows(IllegalArgumentException.class, () -> new TensorDataset(Tensor.zeros(3), Tensor.zeros(4, 2))).getMessage();
    assertTrue(m.contains("Size mismatch between tensors") && m.contains("[3, 4]"), m);
    assertThrows(IllegalArgumentException.class, () -> new TensorDataset());
    m = assertThrows(IllegalArgumentException.class, () -> new TensorDataset(Tensor.scalar(1.0))).getMessage();
    assertTrue(m.contains("0-dim"), m);
    TensorDataset ds = new TensorDataset(Tensor.zeros(4));
    m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds).batchSize(0)).getMessage();
    assertTrue(m.contains("batchSize should be a positive integer value, but got batchSize=0"), m);
    m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds).numWorkers(-1)).getMessage();
    assertTrue(m.contains("numWorkers option should be non-negative"), m);
    m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds).prefetchFactor(2).build()).getMessage();
    assertTrue(m.contains("prefetchFactor option could only be specified with numWorkers > 0"), m);
    m = assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds).numWorkers(1).prefetchFactor(0)).getMessage();
    assertTrue(m.contains("prefetchFactor should be a positive integer, got 0"), m);
    assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(null));
    assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds).collate(null));
    assertThrows(IndexOutOfBoundsException.class, () -> Batch.of(Tensor.zeros(1)).get(1));
  }
}
