package org.jtensor.benchmarks.peers;

import java.util.concurrent.TimeUnit;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;
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

/** The same cases through libtorch (org.bytedeco:pytorch), from Java, outputs allocated and freed. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class LibtorchBenchmark {
  Tensor a, b, bt, s1, s2, m1024a, m1024b, m2048a, m2048b;

  @Setup
  public void setup() {
    torch.set_num_threads(Runtime.getRuntime().availableProcessors());
    TensorOptions f32 = new TensorOptions(torch.ScalarType.Float);
    a = torch.ones(new long[] {4096, 4096}, f32);
    b = torch.ones(new long[] {4096, 4096}, f32);
    bt = b.t();
    s1 = torch.ones(new long[] {4}, f32);
    s2 = torch.ones(new long[] {4}, f32);
    m1024a = torch.ones(new long[] {1024, 1024}, f32);
    m1024b = torch.ones(new long[] {1024, 1024}, f32);
    m2048a = torch.ones(new long[] {2048, 2048}, f32);
    m2048b = torch.ones(new long[] {2048, 2048}, f32);
  }

  @TearDown
  public void tearDown() {
    for (Tensor t : new Tensor[] {a, b, bt, s1, s2, m1024a, m1024b, m2048a, m2048b}) t.close();
  }

  private static long run(Tensor t) {
    try (t) {
      return t.numel();
    }
  }

  @Benchmark public long add16M_libtorch() { return run(a.add(b)); }
  @Benchmark public long addTransposedOperand_libtorch() { return run(a.add(bt)); }
  @Benchmark @OutputTimeUnit(TimeUnit.NANOSECONDS) public long add4_libtorch() { return run(s1.add(s2)); }
  @Benchmark public long sumAll_libtorch() { return run(a.sum()); }
  @Benchmark public long sumDim0_libtorch() { return run(a.sum(0)); }
  @Benchmark public long sumDim1_libtorch() { return run(a.sum(1)); }
  @Benchmark public long softmaxDim1_libtorch() { return run(a.softmax(1)); }
  @Benchmark public long softmaxDim0_libtorch() { return run(a.softmax(0)); }
  @Benchmark public long matmul1024_libtorch() { return run(m1024a.mm(m1024b)); }
  @Benchmark public long matmul2048_libtorch() { return run(m2048a.mm(m2048b)); }
}
