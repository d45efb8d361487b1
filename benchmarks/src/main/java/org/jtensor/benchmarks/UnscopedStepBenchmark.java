package org.jtensor.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.LeakDetector;
import org.jtensor.nn.Functional;
import org.jtensor.optim.Adam;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 21's first-day loop, an MLP 784-256-128-10 at batch 512 with Adam, its step with a
 * TensorScope (every tensor closed at once) and without (every tensor left to the collector: the
 * leak detector's collection on growth, Note [Collecting for unscoped code], frees them). The
 * difference is what the safety net costs a program that never closes anything. The leak log is
 * silenced: the benchmark measures the collections, not the logging.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class UnscopedStepBenchmark {
  Generator g;
  Tensor w1, b1, w2, b2, w3, b3, x, y;
  Adam opt;

  private Tensor param(long... shape) {
    try (Tensor r = Tensor.randn(shape, DType.FLOAT32, g)) {
      return r.mul(0.05).requiresGrad_(true);
    }
  }

  @Setup
  public void setup() {
    java.util.logging.Logger.getLogger("org.jtensor.leak").setLevel(java.util.logging.Level.OFF);
    g = new Generator(21);
    w1 = param(784, 256);
    b1 = param(256);
    w2 = param(256, 128);
    b2 = param(128);
    w3 = param(128, 10);
    b3 = param(10);
    x = Tensor.randn(new long[] {512, 784}, DType.FLOAT32, g);
    y = Tensor.randint(0, 10, new long[] {512}, g);
    opt = new Adam(List.of(w1, b1, w2, b2, w3, b3), 1e-3);
  }

  private void step() {
    opt.zeroGrad();
    Tensor logits = x.matmul(w1).add(b1).relu().matmul(w2).add(b2).relu().matmul(w3).add(b3);
    Functional.crossEntropy(logits, y).backward();
    opt.step();
  }

  @Benchmark
  public void scoped() {
    try (TensorScope s = TensorScope.open()) {
      step();
    }
  }

  @Benchmark
  public void unscoped() {
    step();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    LeakDetector.collect();
    opt.close();
    for (Tensor t : List.of(w1, b1, w2, b2, w3, b3, x, y)) t.close();
  }
}
