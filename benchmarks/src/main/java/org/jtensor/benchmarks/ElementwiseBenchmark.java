package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.Generator;
import org.jtensor.Tensor;
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
 * The elementwise, reduction and random loops a training step spends its time in (issue 19 point
 * 2), float32, out of place: exp, log, sigmoid, tanh, gelu, relu, add, mul, sum and randn over
 * [512, 256] (a small step's activations) and [1024, 4096]. benchmarks/peers/
 * torch_cpu_elementwise_peer.py times the same in PyTorch; run both in one command for a ratio.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ElementwiseBenchmark {
  @Param({"512,256", "1024,4096"})
  String shape;

  @Param({"exp", "log", "sigmoid", "tanh", "gelu", "relu", "add", "mul", "sum", "randn"})
  String op;

  long[] sizes;
  Tensor a, b;
  Generator g;

  @Setup
  public void setup() {
    String[] parts = shape.split(",");
    sizes = new long[parts.length];
    for (int i = 0; i < parts.length; ++i) sizes[i] = Long.parseLong(parts[i]);
    g = new Generator(0);
    a = Tensor.rand(sizes, g).add_(0.5);  // positive, so log is finite
    b = Tensor.rand(sizes, g);
  }

  @TearDown
  public void tearDown() {
    a.close();
    b.close();
  }

  @Benchmark
  public long run() {
    try (Tensor r = apply()) {
      return r.dataPtr();
    }
  }

  private Tensor apply() {
    switch (op) {
      case "exp": return a.exp();
      case "log": return a.log();
      case "sigmoid": return a.sigmoid();
      case "tanh": return a.tanh();
      case "gelu": return a.gelu();
      case "relu": return a.relu();
      case "add": return a.add(b);
      case "mul": return a.mul(b);
      case "sum": return a.sum();
      case "randn": return Tensor.randn(sizes, g);
      default: throw new IllegalArgumentException("unknown op " + op);
    }
  }
}
