package org.jtensor.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Indexing at scale through the Java API: indexSelect of 1M rows of 64 float32, gather and
 * scatterAdd_ of 16M elements at random positions. The native suite (jt_bench) times the same
 * kernel beside a plain C loop over the same buffers; beside these, the Java layer's share shows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class IndexingBenchmark {
  static final int ROWS = 1 << 20, COLS = 64, N = 1 << 24;
  Tensor table, rows, flat, positions, ones;

  @Setup
  public void setup() {
    SplittableRandom rng = new SplittableRandom(42);
    table = Tensor.ones(new long[] {ROWS, COLS}, DType.FLOAT32);
    rows = Tensor.fromArray(rng.longs(ROWS, 0, ROWS).toArray(), ROWS);
    flat = Tensor.ones(new long[] {N}, DType.FLOAT32);
    positions = Tensor.fromArray(rng.longs(N, 0, N).toArray(), N);
    ones = Tensor.ones(new long[] {N}, DType.FLOAT32);
  }

  @TearDown
  public void tearDown() {
    for (Tensor t : new Tensor[] {table, rows, flat, positions, ones}) t.close();
  }

  @Benchmark
  public long indexSelect1Mx64() {
    try (Tensor out = table.indexSelect(0, rows)) {
      return out.dataPtr();
    }
  }

  @Benchmark
  public long gather16M() {
    try (Tensor out = flat.gather(0, positions)) {
      return out.dataPtr();
    }
  }

  @Benchmark
  public long scatterAdd16M() {
    return flat.scatterAdd_(0, positions, ones).dataPtr();
  }
}
