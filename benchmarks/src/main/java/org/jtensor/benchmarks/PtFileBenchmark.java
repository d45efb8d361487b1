package org.jtensor.benchmarks;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.jtensor.io.Tensors;
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
 * Saving and loading a 1 GiB .pt (one float32 tensor) beside the machine's limit measured in the
 * same run: a dd-like FileChannel copy of the same 1 GiB between memory and a file in the same
 * folder, with no format around it (the _dd peer; the ratio is the share of that bandwidth the
 * .pt path reaches). Neither side syncs to disk: both run against the page cache, as torch.save
 * and torch.load do, where the memory copy and the CRC-32 weigh most.
 * Folder: -Djtensor.bench.dir (default: the system temp folder).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@State(Scope.Benchmark)
public class PtFileBenchmark {
  static final long BYTES = 1L << 30;

  Path dir, pt, raw;
  Tensor tensor;
  Storage storage;

  @Setup
  public void setup() throws IOException {
    dir = Files.createTempDirectory(Path.of(System.getProperty("jtensor.bench.dir", System.getProperty("java.io.tmpdir"))), "ptbench");
    pt = dir.resolve("one-gib.pt");
    raw = dir.resolve("one-gib.raw");
    tensor = Tensor.arange(0, BYTES / 4, 1, DType.FLOAT32);
    storage = tensor.untypedStorage();
    Tensors.save(Map.of("w", tensor), pt);  // the file the load benchmarks read
    saveDd();
  }

  @TearDown
  public void tearDown() throws IOException {
    storage.close();
    tensor.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.delete(p);
    }
  }

  @Benchmark
  public long save() throws IOException {
    Tensors.save(Map.of("w", tensor), dir.resolve("saved.pt"));
    return Files.size(dir.resolve("saved.pt"));
  }

  @Benchmark
  public long save_dd() throws IOException {
    return saveDd();
  }

  private long saveDd() throws IOException {
    try (FileChannel ch = FileChannel.open(raw, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      return storage.writeTo(ch, 0, BYTES);
    }
  }

  @Benchmark
  public long load() throws IOException {
    Map<String, Tensor> m = Tensors.load(pt);
    try (Tensor w = m.get("w")) {
      return w.numel();
    }
  }

  @Benchmark
  public long load_dd() throws IOException {
    try (FileChannel ch = FileChannel.open(raw, StandardOpenOption.READ); Storage s = Storage.allocate(BYTES, Device.CPU)) {
      return s.readFrom(ch, 0, BYTES);
    }
  }
}
