package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Functional;
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
 * Issue 19's layer cases on the CPU, forward and backward as a training step runs them:
 * conv2d [32, 64, 56, 56] x [64, 64, 3, 3] padding 1 and maxPool2d(2) of [32, 64, 56, 56], each
 * followed by sum().backward(). benchmarks/peers/torch_cpu_windows_peer.py times the same in PyTorch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class WindowsBenchmark {
  Tensor x, w, b;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    x = Tensor.randn(new long[] {32, 64, 56, 56}, g).requiresGrad_();
    w = Tensor.randn(new long[] {64, 64, 3, 3}, g).mul(0.05).requiresGrad_();
    b = Tensor.zeros(64).requiresGrad_();
  }

  @TearDown
  public void tearDown() {
    x.close();
    w.close();
    b.close();
  }

  @Benchmark
  public void conv2dForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Functional.conv2d(x, w, b, new long[] {1}, new long[] {1}, new long[] {1}, 1).sum().backward();
    }
    x.setGrad(null);
    w.setGrad(null);
    b.setGrad(null);
  }

  @Benchmark
  public void maxPool2dForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Functional.maxPool2d(x, 2).sum().backward();
    }
    x.setGrad(null);
  }
}
