package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
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

/** Creating and closing a view (target ≤ 100 ns), beside one JNI call as the unit of native cost. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ViewBenchmark {
  private Tensor x;

  @Setup
  public void setup() {
    x = Tensor.zeros(64, 64);
  }

  @TearDown
  public void tearDown() {
    x.close();
  }

  @Benchmark
  public long transposeAndClose() {
    try (Tensor v = x.transpose(0, 1)) {
      return v.storageOffset();
    }
  }

  @Benchmark
  public long narrowAndClose() {
    try (Tensor v = x.narrow(0, 3, 20)) {
      return v.storageOffset();
    }
  }

  /** Peer: the cheapest JNI round trip through the same binding. */
  @Benchmark
  public int jniCall() {
    return JtNative.jt_get_num_threads();
  }

  /** A plan of another layout version, refused at its first word: the cost of a call that pins its array (@CriticalRegion). */
  private final long[] stalePlan = {-1, 0, 0, 0, 1, 0};

  @Benchmark
  public int jniCriticalRegionCall() {
    return JtNative.jt_elementwise(stalePlan);
  }
}
