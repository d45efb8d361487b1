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
 * The pointwise functions that are not vectorized here (the C library's, or several of its calls an
 * element): erfinv (trunc_normal_ draws through it), erfc, sin, atan, log10, log2, lgamma and expm1
 * over 1M float32 values in (0.01, 0.99), out of place. benchmarks/peers/torch_cpu_special_peer.py
 * times the same in PyTorch; run both in one command and report the ratio (docs/performance.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SpecialFunctionsBenchmark {
  @Param({"erfinv", "erfc", "sin", "atan", "log10", "log2", "lgamma", "expm1"})
  String op;

  Tensor a;

  @Setup
  public void setup() {
    a = Tensor.rand(new long[] {1024, 1024}, new Generator(0)).mul_(0.98).add_(0.01);
  }

  @TearDown
  public void tearDown() {
    a.close();
  }

  @Benchmark
  public long run() {
    try (Tensor r = apply()) {
      return r.dataPtr();
    }
  }

  private Tensor apply() {
    return switch (op) {
      case "erfinv" -> a.erfinv();
      case "erfc" -> a.erfc();
      case "sin" -> a.sin();
      case "atan" -> a.atan();
      case "log10" -> a.log10();
      case "log2" -> a.log2();
      case "lgamma" -> a.lgamma();
      case "expm1" -> a.expm1();
      default -> throw new IllegalArgumentException("unknown op " + op);
    };
  }
}
