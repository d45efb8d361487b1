package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.nn.Conv2d;
import org.jtensor.nn.Flatten;
import org.jtensor.nn.Functional;
import org.jtensor.nn.Linear;
import org.jtensor.nn.MaxPool2d;
import org.jtensor.nn.Module;
import org.jtensor.nn.ReLU;
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
 * One training step of the main job's models at batch 128: forward, cross entropy, backward and an
 * Adam step, every tensor of the step closed (peers.LibtorchTrainingStepBenchmark is the same in libtorch).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class TrainingStepBenchmark {
  @Param({"mlp", "cnn"})
  public String model;

  Module net;
  Adam opt;
  Tensor x, y;

  @Setup
  public void setup() {
    Generator g = new Generator(0);
    if (model.equals("mlp")) {
      net = new Sequential(new Linear(784, 256, g), new ReLU(), new Linear(256, 128, g), new ReLU(), new Linear(128, 10, g));
      x = Tensor.randn(new long[] {128, 784}, DType.FLOAT32, g);
    } else {
      net = new Sequential(new Conv2d(1, 16, 3, 1, 1, g), new ReLU(), new MaxPool2d(2), new Conv2d(16, 32, 3, 1, 1, g),
          new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(32 * 7 * 7, 128, g), new ReLU(), new Linear(128, 10, g));
      x = Tensor.randn(new long[] {128, 1, 28, 28}, DType.FLOAT32, g);
    }
    y = Tensor.randint(0, 10, new long[] {128}, g);
    opt = new Adam(net.parameters(), 1e-3);
  }

  @TearDown
  public void tearDown() {
    opt.close();
    net.close();
    x.close();
    y.close();
  }

  @Benchmark
  public double step() {
    opt.zeroGrad();
    double l;
    try (TensorScope s = TensorScope.open()) {
      Tensor loss = Functional.crossEntropy(net.forward(x), y);
      loss.backward();
      l = loss.item();
    }
    opt.step();
    return l;
  }
}
