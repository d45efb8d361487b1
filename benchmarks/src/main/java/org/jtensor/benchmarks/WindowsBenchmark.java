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
 * followed by sum().backward(); and the main job's ResNet's downsampling convolutions at batch 128
 * (a 3 x 3 stride-2 conv of [128, 16, 28, 28] to 32 channels and the 1 x 1 stride-2 shortcut beside
 * it). benchmarks/peers/torch_cpu_windows_peer.py times the same in PyTorch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class WindowsBenchmark {
  Tensor x, w, b, sx, sw, shortcut;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    x = Tensor.randn(new long[] {32, 64, 56, 56}, g).requiresGrad_();
    w = Tensor.randn(new long[] {64, 64, 3, 3}, g).mul(0.05).requiresGrad_();
    b = Tensor.zeros(64).requiresGrad_();
    sx = Tensor.randn(new long[] {128, 16, 28, 28}, g).requiresGrad_();
    sw = Tensor.randn(new long[] {32, 16, 3, 3}, g).mul(0.1).requiresGrad_();
    shortcut = Tensor.randn(new long[] {32, 16, 1, 1}, g).mul(0.1).requiresGrad_();
  }

  @TearDown
  public void tearDown() {
    x.close();
    w.close();
    b.close();
    sx.close();
    sw.close();
    shortcut.close();
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

  @Benchmark
  public void stridedConvForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      long[] two = {2};
      Tensor y = Functional.conv2d(sx, sw, null, two, new long[] {1}, new long[] {1}, 1);
      Tensor z = Functional.conv2d(sx, shortcut, null, two, new long[] {0}, new long[] {1}, 1);
      y.add(z).sum().backward();
    }
    sx.setGrad(null);
    sw.setGrad(null);
    shortcut.setGrad(null);
  }
}
