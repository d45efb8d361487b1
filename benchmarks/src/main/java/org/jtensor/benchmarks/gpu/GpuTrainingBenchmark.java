package org.jtensor.benchmarks.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Linear;
import org.jtensor.nn.Module;
import org.jtensor.nn.Sequential;
import org.jtensor.optim.Adam;
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
 * One training step on cuda:0 at batch 128 of the main job's models (TrainingStepBenchmark's, with
 * the same initial parameters copied to the GPU): forward, cross entropy, backward and an Adam
 * step, ended by reading the loss (which waits for the device), as PyTorch's 1.24 ms (MLP) and
 * 1.93 ms (CNN) on an H100 were timed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class GpuTrainingBenchmark {
  @Param({"mlp", "cnn"})
  public String model;

  List<Tensor> params = new ArrayList<>();
  Adam opt;
  Tensor x, y;

  @Setup
  public void setup() {
    GpuBenchmark.requireCuda();
    Generator g = new Generator(0);
    Tensor hx, hy;
    Module net;
    if (model.equals("mlp")) {
      net = new Sequential(new Linear(784, 256, g), new Linear(256, 128, g), new Linear(128, 10, g));
      hx = Tensor.randn(new long[] {128, 784}, DType.FLOAT32, g);
    } else {
      net = new Sequential(new Conv2d(1, 16, 3, 1, 1, g), new Conv2d(16, 32, 3, 1, 1, g), new Linear(32 * 7 * 7, 128, g),
          new Linear(128, 10, g));
      hx = Tensor.randn(new long[] {128, 1, 28, 28}, DType.FLOAT32, g);
    }
    hy = Tensor.randint(0, 10, new long[] {128}, g);
    try (net; hx; hy) {
      for (Tensor p : net.parameters()) {
        try (Tensor d = p.detach()) {  // a leaf on the GPU (p.to() of a parameter would be a node of p's graph)
          params.add(d.to(GpuBenchmark.GPU).requiresGrad_());
        }
      }
      x = hx.to(GpuBenchmark.GPU);
      y = hy.to(GpuBenchmark.GPU);
    }
    opt = new Adam(params, 1e-3);
  }

  @TearDown
  public void tearDown() {
    opt.close();
    for (Tensor p : params) p.close();
    x.close();
    y.close();
  }

  /** The layers' parameters in order (weight, bias per layer), without the parameterless ReLU and pooling modules. */
  private Tensor forward(Tensor in) {
    List<Tensor> p = params;
    if (model.equals("mlp")) {
      Tensor h = Functional.linear(in, p.get(0), p.get(1)).relu();
      h = Functional.linear(h, p.get(2), p.get(3)).relu();
      return Functional.linear(h, p.get(4), p.get(5));
    }
    Tensor h = Functional.maxPool2d(Functional.conv2d(in, p.get(0), p.get(1), 1, 1).relu(), 2);
    h = Functional.maxPool2d(Functional.conv2d(h, p.get(2), p.get(3), 1, 1).relu(), 2).flatten(1, 3);
    h = Functional.linear(h, p.get(4), p.get(5)).relu();
    return Functional.linear(h, p.get(6), p.get(7));
  }

  @Benchmark
  public double step() {
    opt.zeroGrad();
    double l;
    try (TensorScope s = TensorScope.open()) {
      Tensor loss = Functional.crossEntropy(forward(x), y);
      loss.backward();
      opt.step();
      l = loss.item();  // waits for the step's kernels
    }
    return l;
  }
}
