package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.bindings.JtNative;
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
 * jtensor's compute against the plain C loops (the limit) on the same buffers: add of 16M
 * elements, add with a transposed 4096x4096 operand, sums of 4096x4096 over all, dim 0 and dim 1.
 * Outputs are allocated and closed inside every jtensor measurement; the C loops write into
 * preallocated buffers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ComputeBenchmark {
  static final int N = 4096;
  Tensor a, b, bt, out, sums;

  @Setup
  public void setup() {
    a = Tensor.rand(new long[] {N, N}, new org.jtensor.Generator(1));
    b = Tensor.rand(new long[] {N, N}, new org.jtensor.Generator(2));
    bt = b.t();
    out = Tensor.empty(new long[] {N, N}, DType.FLOAT32);
    sums = Tensor.empty(new long[] {N}, DType.FLOAT32);
  }

  @TearDown
  public void tearDown() {
    for (Tensor t : new Tensor[] {bt, a, b, out, sums}) t.close();
  }

  @Benchmark
  public long add16M() {
    try (Tensor c = a.add(b)) {
      return c.dataPtr();
    }
  }

  @Benchmark
  public long add16M_plainC() {
    JtNative.jt_ref_add_f32(out.dataPtr(), a.dataPtr(), b.dataPtr(), (long) N * N);
    return out.dataPtr();
  }

  @Benchmark
  public long addTransposedOperand() {
    try (Tensor c = a.add(bt)) {
      return c.dataPtr();
    }
  }

  @Benchmark
  public double sumAll() {
    try (Tensor s = a.sum()) {
      return s.dataPtr();
    }
  }

  @Benchmark
  public double sumAll_plainC() {
    JtNative.jt_ref_sum_f32(sums.dataPtr(), a.dataPtr(), N, N, -1);
    return sums.dataPtr();
  }

  @Benchmark
  public long sumDim0() {
    try (Tensor s = a.sum(0)) {
      return s.dataPtr();
    }
  }

  @Benchmark
  public long sumDim0_plainC() {
    JtNative.jt_ref_sum_f32(sums.dataPtr(), a.dataPtr(), N, N, 0);
    return sums.dataPtr();
  }

  @Benchmark
  public long sumDim1() {
    try (Tensor s = a.sum(1)) {
      return s.dataPtr();
    }
  }

  @Benchmark
  public long sumDim1_plainC() {
    JtNative.jt_ref_sum_f32(sums.dataPtr(), a.dataPtr(), N, N, 1);
    return sums.dataPtr();
  }
}
