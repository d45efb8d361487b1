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
 * contiguous() of a transposed 4096x4096 float32 (output allocated and closed each time) against
 * a plain memory copy of the same 64 MiB between preallocated buffers: target ≥ 50% of the copy.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class ContiguousBenchmark {
  private static final int N = 4096;
  private Tensor src;
  private Tensor transposed;
  private Tensor dst;

  @Setup
  public void setup() {
    src = Tensor.ones(new long[] {N, N}, DType.FLOAT32);
    transposed = src.t();
    dst = Tensor.empty(new long[] {N, N}, DType.FLOAT32);
  }

  @TearDown
  public void tearDown() {
    transposed.close();
    src.close();
    dst.close();
  }

  @Benchmark
  public long contiguousOfTransposed() {
    try (Tensor c = transposed.contiguous()) {
      return c.dataPtr();
    }
  }

  /** Peer: the machine's copy speed for the same bytes (parallel memcpy, as the kernel's threads). */
  @Benchmark
  public long memcpySameBytes() {
    JtNative.jt_memcpy(dst.dataPtr(), src.dataPtr(), (long) N * N * 4);
    return dst.dataPtr();
  }
}
