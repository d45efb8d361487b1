package org.jtensor.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
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
 * Java arrays and buffers in and out: fromArray and toFloatArray of 64 MiB of float32 beside one
 * System.arraycopy of the same bytes (the one-copy bound: a JNI copy of the array first would
 * take twice as long), and fromBuffer over 1 MiB and 256 MiB direct buffers (no copy: the same
 * time whatever the size).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ArrayCopyBenchmark {
  static final int N = 16 << 20;  // 64 MiB of float32
  float[] data = new float[N], sink = new float[N];
  ByteBuffer small = ByteBuffer.allocateDirect(1 << 20), large = ByteBuffer.allocateDirect(256 << 20);
  Tensor tensor;

  @Setup
  public void setup() {
    for (int i = 0; i < N; i++) data[i] = i;
    tensor = Tensor.fromArray(data);
  }

  @TearDown
  public void tearDown() {
    tensor.close();
  }

  @Benchmark
  public long fromArray64M() {
    try (Tensor t = Tensor.fromArray(data)) {
      return t.dataPtr();
    }
  }

  @Benchmark
  public float[] fromArray64M_arraycopy() {
    System.arraycopy(data, 0, sink, 0, N);
    return sink;
  }

  @Benchmark
  public float[] toFloatArray64M() {
    return tensor.toFloatArray();
  }

  @Benchmark
  public float[] toFloatArray64M_arraycopy() {
    float[] out = new float[N];
    System.arraycopy(data, 0, out, 0, N);
    return out;
  }

  @Benchmark
  public long fromBuffer1M() {
    try (Tensor t = Tensor.fromBuffer(small, DType.FLOAT32, 1 << 18)) {
      return t.dataPtr();
    }
  }

  @Benchmark
  public long fromBuffer256M() {
    try (Tensor t = Tensor.fromBuffer(large, DType.FLOAT32, 1 << 26)) {
      return t.dataPtr();
    }
  }
}
