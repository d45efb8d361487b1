package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The autograd engine's own cost: backward through a chain of CHAIN tiny ops (a 1-element tensor
 * times a scalar, so the kernels cost next to nothing), divided by CHAIN in the report: the cost
 * per node of scheduling it, running its formula's one op, and freeing its gradient. The graph is
 * built before each measured call, outside the measurement. opsAloneChain runs the same number of
 * the same op (g * 1.0001, allocated and closed) with nothing recorded: the engine's own overhead
 * per node is (backwardChain − opsAloneChain) / chain (target ≤ 1 µs).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AutogradBenchmark {
  @Param({"1000"})
  public int chain;

  Tensor x;
  TensorScope scope;
  Tensor loss;

  @Setup(Level.Trial)
  public void leaf() {
    x = Tensor.ones(1).requiresGrad_();
  }

  @Setup(Level.Invocation)
  public void graph() {
    scope = TensorScope.open();
    Tensor y = x;
    for (int i = 0; i < chain; i++) y = y.mul(1.0001);
    loss = y.sum();
  }

  @Benchmark
  public void backwardChain() {
    loss.backward();
  }

  @Benchmark
  public long opsAloneChain() {
    long sum = 0;
    try (GradMode.Scope off = GradMode.noGrad(); Tensor g = Tensor.ones(1)) {
      for (int i = 0; i < chain; i++) {
        try (Tensor r = g.mul(1.0001)) {
          sum += r.storageOffset();
        }
      }
    }
    return sum;
  }

  @TearDown(Level.Invocation)
  public void free() {
    scope.close();
    x.setGrad(null);
  }

  @TearDown(Level.Trial)
  public void close() {
    x.close();
  }
}
