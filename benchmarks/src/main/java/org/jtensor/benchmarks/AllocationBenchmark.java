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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Creating and closing a 1 MiB tensor on the allocator's cached path (target ≤ 250 ns), beside
 * the same native allocate/free called directly: the difference is the Java layer's cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AllocationBenchmark {
  @Param({"1048576"})
  public long bytes;

  @Benchmark
  public long emptyAndClose() {
    try (Tensor t = Tensor.empty(new long[] {bytes / 4}, DType.FLOAT32)) {
      return t.dataPtr();
    }
  }

  /** Peer: the native storage's allocate and release through JNI, no Java objects. */
  @Benchmark
  public long nativeStorageNewAndRelease() {
    long s = JtNative.jt_storage_new(0, bytes);  // 0: jt_device_type CPU
    long p = JtNative.jt_storage_data(s);
    JtNative.jt_storage_release(s);
    return p;
  }
}
