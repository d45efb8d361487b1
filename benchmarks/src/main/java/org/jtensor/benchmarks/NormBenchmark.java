package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.BatchNorm2d;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Functional;
import org.jtensor.nn.LayerOptions;
import org.jtensor.optim.Adam;
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
 * Issue 19's normalization cases on the CPU, forward then sum().backward() as a training step runs
 * them: batchNorm (training) and groupNorm(32) of [32, 64, 56, 56], layerNorm of [4096, 768], and a
 * ResNet BasicBlock step at [32, 64, 32, 32] (conv-bn-relu-conv-bn, identity shortcut, relu; Adam).
 * benchmarks/peers/torch_cpu_windows_peer.py times the same in PyTorch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class NormBenchmark {
  Tensor image, rows, w, b, lw, lb, runningMean, runningVar, blockInput;
  Conv2d conv1, conv2;
  BatchNorm2d bn1, bn2;
  Adam opt;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    image = Tensor.randn(new long[] {32, 64, 56, 56}, g).requiresGrad_();
    rows = Tensor.randn(new long[] {4096, 768}, g).requiresGrad_();
    w = Tensor.ones(64).requiresGrad_();
    b = Tensor.zeros(64).requiresGrad_();
    lw = Tensor.ones(768).requiresGrad_();
    lb = Tensor.zeros(768).requiresGrad_();
    runningMean = Tensor.zeros(64);
    runningVar = Tensor.ones(64);
    blockInput = Tensor.randn(new long[] {32, 64, 32, 32}, g);
    LayerOptions conv3x3 = LayerOptions.of().padding(1).bias(false);
    conv1 = new Conv2d(64, 64, 3, conv3x3, g);
    conv2 = new Conv2d(64, 64, 3, conv3x3, g);
    bn1 = new BatchNorm2d(64);
    bn2 = new BatchNorm2d(64);
    java.util.List<Tensor> params = new java.util.ArrayList<>();
    for (org.jtensor.nn.Module m : new org.jtensor.nn.Module[] {conv1, bn1, conv2, bn2}) params.addAll(m.parameters());
    opt = new Adam(params, 1e-3);
  }

  @TearDown
  public void tearDown() {
    opt.close();
    for (AutoCloseable c : new AutoCloseable[] {conv1, conv2, bn1, bn2}) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    for (Tensor t : new Tensor[] {image, rows, w, b, lw, lb, runningMean, runningVar, blockInput}) t.close();
  }

  private void clearGrads(Tensor... ts) {
    for (Tensor t : ts) t.setGrad(null);
  }

  @Benchmark
  public void batchNorm2dForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Functional.batchNorm(image, runningMean, runningVar, w, b, true, 0.1, 1e-5).sum().backward();
    }
    clearGrads(image, w, b);
  }

  @Benchmark
  public void groupNormForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Functional.groupNorm(image, 32, w, b, 1e-5).sum().backward();
    }
    clearGrads(image, w, b);
  }

  @Benchmark
  public void layerNormForwardBackward() {
    try (TensorScope s = TensorScope.open()) {
      Functional.layerNorm(rows, 1, lw, lb, 1e-5).sum().backward();
    }
    clearGrads(rows, lw, lb);
  }

  @Benchmark
  public void basicBlockStep() {
    opt.zeroGrad();
    try (TensorScope s = TensorScope.open()) {
      Tensor h = bn2.forward(conv2.forward(bn1.forward(conv1.forward(blockInput)).relu()));
      h.add(blockInput).relu().sum().backward();
    }
    opt.step();
  }
}
