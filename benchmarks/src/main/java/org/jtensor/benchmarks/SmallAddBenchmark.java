package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
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

/** The fixed cost of an op: add of two 4-element tensors, output allocated and closed (target ≤ 300 ns). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class SmallAddBenchmark {
  Tensor a, b;

  @Setup
  public void setup() {
    a = Tensor.fromArray(new float[] {1, 2, 3, 4});
    b = Tensor.fromArray(new float[] {5, 6, 7, 8});
  }

  @TearDown
  public void tearDown() {
    a.close();
    b.close();
  }

  /** The op alone: in place, nothing allocated. */
  @Benchmark
  public long add4InPlace() {
    return a.add_(b).storageOffset();
  }

  /** The allocation alone: a 4-element tensor created and closed. */
  @Benchmark
  public long empty4AndClose() {
    try (Tensor c = Tensor.empty(4)) {
      return c.dataPtr();
    }
  }

  @Benchmark
  public long add4() {
    try (Tensor c = a.add(b)) {
      return c.dataPtr();
    }
  }
}
