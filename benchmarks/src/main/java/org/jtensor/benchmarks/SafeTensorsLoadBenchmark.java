package org.jtensor.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.io.SafeTensors;
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
 * SafeTensors.load of a 1 MiB and a 1 GiB file (eight float32 tensors each, written once in
 * setup): the load maps the file and reads only its header, so both take about the same time.
 * Each call closes what it loaded. The peer is reading the same bytes, once, into memory.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SafeTensorsLoadBenchmark {
  private static final int TENSORS = 8;
  @Param({"1", "1024"})
  public int mib;
  private Path file;
  private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);

  @Setup
  public void setup() throws IOException {
    file = Files.createTempFile("jtensor-bench", ".safetensors");
    long perTensor = (long) mib * 1024 * 1024 / TENSORS / Float.BYTES;
    try (Tensor t = Tensor.ones(new long[] {perTensor}, DType.FLOAT32)) {
      Map<String, Tensor> m = new java.util.LinkedHashMap<>();
      for (int i = 0; i < TENSORS; i++) m.put("layer" + i + ".weight", t);
      SafeTensors.save(m, file);
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  @Benchmark
  public long load() throws IOException {
    long sum = 0;
    for (Tensor t : SafeTensors.load(file).values()) {
      sum += t.numel();
      t.close();
    }
    return sum;
  }

  /** Peer: the O(size) alternative, reading every byte of the file once (from the page cache). */
  @Benchmark
  public long readAllBytes() throws IOException {
    long total = 0;
    buf.clear();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      int n;
      while ((n = ch.read(buf)) >= 0) {
        total += n;
        buf.clear();
      }
    }
    return total;
  }
}
