package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * softmax over dim 1 (rows, the innermost dim) and dim 0 (columns) of a 4096x4096 float32: the
 * fused kernel against the composition it replaced (amax, sub, exp, sum, div: five passes and four
 * temporaries). libtorch's softmax runs the same cases in peers.LibtorchBenchmark (-Ppeers).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SoftmaxBenchmark {
  static final int N = 4096;
  @Param({"1", "0"})
  int dim;
  Tensor a;

  @Setup
  public void setup() {
    a = Tensor.rand(new long[] {N, N}, new org.jtensor.Generator(1));
  }

  @TearDown
  public void tearDown() {
    a.close();
  }

  @Benchmark
  public long softmax() {
    try (Tensor s = a.softmax(dim)) {
      return s.dataPtr();
    }
  }

  @Benchmark
  public long softmax_composed() {
    try (TensorScope s = TensorScope.open()) {
      Tensor e = a.sub(a.amax(dim, true)).exp();
      return e.div(e.sum(dim, true)).dataPtr();
    }
  }
}
