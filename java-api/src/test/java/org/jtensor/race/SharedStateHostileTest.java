package org.jtensor.race;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.ScopedTest;
import org.jtensor.Tensor;
import org.jtensor.Threads;
import org.jtensor.Together;
import org.jtensor.memory.Memory;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.jtensor.nn.Functional;
import org.junit.jupiter.api.Test;

/**
 * Process-wide state shared by threads: one Generator drawn from by several threads at once (each
 * draw a whole, distinct slice of the one stream, as PyTorch's generator locked per draw), the
 * intra-op pool resized while ops run on it, and the allocator's statistics and controls used while
 * other threads allocate and free.
 */
class SharedStateHostileTest extends ScopedTest {
  static final int THREADS = 3, DRAWS = 40, K = 64;

  /** Runs body(i) on n threads released together; rethrows the first failure. */
  static void together(int n, IntConsumer body) throws Exception {
    Together.run(n, body);
  }

  interface Draw {
    double[] draw(Generator g, int k);
  }

  static double[] f64(Tensor t) {
    try (Tensor d = t.to(DType.FLOAT64)) {
      return d.toDoubleArray();
    } finally {
      t.close();
    }
  }

  static Map<String, Draw> kinds() {
    Map<String, Draw> m = new LinkedHashMap<>();
    m.put("rand float32", (g, k) -> f64(Tensor.rand(new long[] {k}, g)));
    m.put("rand float64", (g, k) -> f64(Tensor.rand(new long[] {k}, DType.FLOAT64, g)));
    m.put("randn", (g, k) -> f64(Tensor.randn(new long[] {k}, DType.FLOAT64, g)));
    m.put("randint", (g, k) -> f64(Tensor.randint(0, 1L << 40, new long[] {k}, g)));
    m.put("uniform_", (g, k) -> f64(Tensor.empty(new long[] {k}, DType.FLOAT64).uniform_(-2, 3, g)));
    m.put("normal_", (g, k) -> f64(Tensor.empty(new long[] {k}, DType.FLOAT64).normal_(1, 2, g)));
    m.put("dropout", (g, k) -> {
      try (Tensor ones = Tensor.ones(new long[] {k}, DType.FLOAT64)) {
        return f64(ones.dropout(0.5, true, g));
      }
    });
    return m;
  }

  @Test
  void threadsDrawingFromOneGeneratorTogetherGetExactlyTheValuesOfOneThreadsDraw() throws Exception {
    for (Map.Entry<String, Draw> e : kinds().entrySet()) {
      String kind = e.getKey();
      Draw d = e.getValue();
      // one thread: draws of K follow each other in the stream, as one draw of their total
      double[] two = d.draw(new Generator(5), 2 * K), first = d.draw(new Generator(5), K);
      assertArrayEquals(Arrays.copyOf(two, K), first, kind + ": a draw is the start of a longer one");
      double[] want = d.draw(new Generator(11), THREADS * DRAWS * K);
      Generator shared = new Generator(11);
      double[][] got = new double[THREADS * DRAWS][];
      together(THREADS, i -> {
        for (int r = 0; r < DRAWS; r++) got[i * DRAWS + r] = d.draw(shared, K);
      });
      double[] all = new double[want.length];
      for (int j = 0; j < got.length; j++) System.arraycopy(got[j], 0, all, j * K, K);
      Arrays.sort(all);
      Arrays.sort(want);
      assertArrayEquals(want, all, kind + ": the threads' draws together are one thread's draw");
      Generator alone = new Generator(11);
      d.draw(alone, THREADS * DRAWS * K);
      assertArrayEquals(alone.getState(), shared.getState(), kind + ": the generator ends where one thread's draw leaves it");
    }
  }

  /** The index of each value of a uniform float64 stream (values of 53 random bits do not repeat). */
  static Map<Double, Integer> indexOf(double[] stream) {
    Map<Double, Integer> m = new HashMap<>();
    for (int i = 0; i < stream.length; i++) m.put(stream[i], i);
    assertEquals(stream.length, m.size(), "the reference stream repeats a value");
    return m;
  }

  @Test
  void reseedingTheDefaultGeneratorWhileThreadsDrawGivesEachDrawAWholeSliceOfOneSeedsStream() throws Exception {
    Generator dflt = Generator.defaultGenerator();
    long[] saved = dflt.getState();
    try {
      int total = THREADS * DRAWS * K;
      double[] a = f64(Tensor.rand(new long[] {total}, DType.FLOAT64, new Generator(21)));
      double[] b = f64(Tensor.rand(new long[] {total}, DType.FLOAT64, new Generator(22)));
      Map<Double, Integer> ia = indexOf(a), ib = indexOf(b);
      Generator.manualSeed(21);
      CountDownLatch someDrawn = new CountDownLatch(THREADS * 3), reseeded = new CountDownLatch(1);
      double[][] got = new double[THREADS * DRAWS][];
      together(THREADS + 1, i -> {
        if (i == THREADS) {  // the re-seeder: once every thread has drawn a few times
          try {
            assertTrue(someDrawn.await(30, TimeUnit.SECONDS));
          } catch (InterruptedException ex) {
            throw new AssertionError(ex);
          }
          Generator.manualSeed(22);
          reseeded.countDown();
          return;
        }
        for (int r = 0; r < DRAWS; r++) {
          if (r == DRAWS - 1) {  // every thread's last draw after the re-seed, however the threads were scheduled before it
            try {
              assertTrue(reseeded.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException ex) {
              throw new AssertionError(ex);
            }
          }
          try (Tensor t = Tensor.rand(new long[] {K}, DType.FLOAT64, Generator.defaultGenerator())) {
            got[i * DRAWS + r] = t.toDoubleArray();
          }
          someDrawn.countDown();
        }
      });
      boolean[] usedA = new boolean[total / K], usedB = new boolean[total / K];
      int fromB = 0;
      for (double[] v : got) {
        boolean inA = ia.containsKey(v[0]);
        Map<Double, Integer> idx = inA ? ia : ib;
        Integer start = idx.get(v[0]);
        assertTrue(start != null && start % K == 0, "a draw starts inside a slice or outside both streams: " + start);
        for (int j = 0; j < K; j++) assertEquals(start + j, idx.get(v[j]), "a draw mixes slices or seeds at element " + j);
        boolean[] used = inA ? usedA : usedB;
        assertTrue(!used[start / K], "two draws got the same values (slice " + start / K + (inA ? " of seed 21)" : " of seed 22)"));
        used[start / K] = true;
        if (!inA) fromB++;
      }
      assertTrue(fromB >= THREADS, "the draws after manualSeed(22) come from its stream: " + fromB);
    } finally {
      dflt.setState(saved);
    }
  }

  @Test
  void aStateReadWhileThreadsDrawIsWholeAndReplaysTheDrawThatFollowedIt() throws Exception {
    int total = THREADS * DRAWS * K;
    double[] stream = f64(Tensor.rand(new long[] {total}, DType.FLOAT64, new Generator(31)));
    Map<Double, Integer> idx = indexOf(stream);
    Generator shared = new Generator(31);
    ConcurrentLinkedQueue<long[]> states = new ConcurrentLinkedQueue<>();
    AtomicBoolean drawing = new AtomicBoolean(true);
    together(THREADS + 1, i -> {
      if (i == THREADS) {
        while (drawing.get()) states.add(shared.getState());
        return;
      }
      for (int r = 0; r < DRAWS; r++) f64(Tensor.rand(new long[] {K}, DType.FLOAT64, shared));
      if (i == 0) drawing.set(false);
    });
    Generator replay = new Generator(0);
    for (long[] s : states) {
      assertEquals(31, s[0], "the seed read with the offset");
      long element = 2 * s[1];  // float64 uniforms: two per Philox block
      assertEquals(0, element % K, "an offset between draws of " + K + ": " + s[1]);
      if (element >= total) continue;
      double[] v = f64(Tensor.rand(new long[] {K}, DType.FLOAT64, replay.setState(s)));
      for (int j = 0; j < K; j++) assertEquals(element + j, (long) idx.get(v[j]), "setState(getState()) replays the stream");
    }
  }

  @Test
  void aDrawPastTheLargestOffsetIsRefusedAndLeavesAStateThatSetStateTakesBack() {
    long[] near = {1, Long.MAX_VALUE - 2};
    Generator g = new Generator(0).setState(near);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Tensor.rand(new long[] {100}, DType.FLOAT64, g));
    assertTrue(e.getMessage().contains("largest offset"), e.getMessage());
    assertArrayEquals(near, g.getState(), "a refused draw reserves nothing");
    f64(Tensor.rand(new long[] {4}, DType.FLOAT64, g));  // two blocks: exactly to the end
    g.setState(g.getState());  // a checkpoint of it loads
    assertEquals(Long.MAX_VALUE, g.getState()[1]);
  }

  @Test
  void resizingTheIntraOpPoolWhileOtherThreadsRunLargeOpsKeepsTheirValues() throws Exception {
    int was = Threads.getNumThreads();
    try {
      Generator g = new Generator(41);
      Tensor a = Tensor.rand(new long[] {160, 160}, g), b = Tensor.rand(new long[] {160, 160}, g);
      Tensor x = Tensor.rand(new long[] {2, 8, 40, 40}, g), w = Tensor.rand(new long[] {8, 8, 3, 3}, g);
      Tensor ones = Tensor.ones(1 << 20), rows = Tensor.rand(new long[] {4, 40000}, g);
      Tensor mm = a.matmul(b), conv = Functional.conv2d(x, w, null, 1, 1), soft = rows.softmax(1);
      AtomicBoolean resizing = new AtomicBoolean(true);
      together(3, i -> {
        if (i == 2) {
          for (int r = 0; r < 40; r++) {
            Threads.setNumThreads(1 + r % 4);
            int n = Threads.getNumThreads();
            assertTrue(n >= 1 && n <= 4, "getNumThreads() while resizing: " + n);
          }
          resizing.set(false);
          return;
        }
        for (int r = 0; resizing.get() || r < 3; r++) {
          try (Tensor m = a.matmul(b); Tensor c = Functional.conv2d(x, w, null, 1, 1); Tensor s = ones.sum();
               Tensor sm = rows.softmax(1)) {
            assertTrue(m.allclose(mm, 1e-4, 1e-5), "matmul while the pool is resized");
            assertTrue(c.allclose(conv, 1e-4, 1e-5), "conv2d while the pool is resized");
            assertEquals(1 << 20, s.item(), "sum of ones while the pool is resized");
            assertTrue(sm.allclose(soft, 1e-4, 1e-7), "softmax while the pool is resized");
          }
        }
      });
    } finally {
      Threads.setNumThreads(was);
    }
  }

  @Test
  void statisticsCacheAndLimitControlsFromAThirdThreadWhileTwoThreadsChurn() throws Exception {
    Device cpu = Device.CPU;
    long limitWas = Memory.memoryLimit(cpu);
    long[] sizes = {16, 3000, 70_000, 400_000, 1_500_000};
    AtomicBoolean churning = new AtomicBoolean(true);
    try {
      together(3, i -> {
        if (i == 2) {
          for (int r = 0; r < 300; r++) {
            Map<String, Long> s = Memory.memoryStats(cpu);
            for (Map.Entry<String, Long> e : s.entrySet()) {
              String k = e.getKey();
              if (!k.endsWith(".current")) continue;
              assertTrue(e.getValue() >= 0, k + " is negative: " + e.getValue());
              Long peak = s.get(k.substring(0, k.length() - ".current".length()) + ".peak");
              if (peak != null) assertTrue(peak >= e.getValue(), k + " " + e.getValue() + " above its peak " + peak);
            }
            if (r % 3 == 0) Memory.resetPeakMemoryStats(cpu);
            if (r % 5 == 0) Memory.emptyCache(cpu);
            if (r % 7 == 0) {
              for (Memory.Segment seg : Memory.memorySnapshot(cpu)) {
                long sum = 0;
                for (Memory.Block blk : seg.blocks()) sum += blk.size();
                assertEquals(seg.totalSize(), sum, "a segment's blocks cover it");
                assertTrue(seg.allocatedSize() <= seg.totalSize(), "a segment allocates within itself");
              }
            }
            if (r % 11 == 0) Memory.setMemoryLimit(cpu, r % 22 == 0 ? Memory.memoryReserved(cpu) + (4 << 20) : limitWas);
          }
          Memory.setMemoryLimit(cpu, limitWas);
          churning.set(false);
          return;
        }
        java.util.ArrayDeque<Tensor> live = new java.util.ArrayDeque<>();
        try {
          for (int r = 0; churning.get() || r < 50; r++) {
            long n = sizes[(r * 7 + i) % sizes.length];
            try {
              Tensor t = Tensor.full(new long[] {n / 4 + 1}, (double) (r % 100));
              live.add(t);
              if (live.size() > 4) {
                Tensor old = live.poll();
                double first = old.getDouble(0);
                old.close();
                assertTrue(first >= 0 && first < 100 && first == Math.rint(first), "a block's values changed under it: " + first);
              }
            } catch (TensorOutOfMemoryException oom) {
              // the limit the third thread set: refused, nothing else
            }
          }
        } finally {
          live.forEach(Tensor::close);
        }
      });
    } finally {
      Memory.setMemoryLimit(cpu, limitWas);
    }
    Map<String, Long> s = Memory.memoryStats(cpu);
    assertTrue(s.get("allocated_bytes.all.peak") >= s.get("allocated_bytes.all.current"));
  }
}
