package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.jtensor.DType;
import org.jtensor.Generator;
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

/** matmul of n x n float32 (output allocated and closed) against cblas_sgemm called directly on the same buffers. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class MatmulBenchmark {
  /** A view of native memory at an address, for passing jtensor's buffers to the BLAS directly. */
  static final class At extends Pointer {
    At(long address) {
      this.address = address;
    }
  }

  /** a, b, c of n x n float32, and the same buffers as BLAS pointers. */
  static final class Operands implements AutoCloseable {
    final int n;
    final Tensor a, b, c;
    final FloatPointer pa, pb, pc;

    Operands(int n) {
      this.n = n;
      a = Tensor.rand(new long[] {n, n}, new Generator(1));
      b = Tensor.rand(new long[] {n, n}, new Generator(2));
      c = Tensor.empty(new long[] {n, n}, DType.FLOAT32);
      pa = new FloatPointer(new At(a.dataPtr()));
      pb = new FloatPointer(new At(b.dataPtr()));
      pc = new FloatPointer(new At(c.dataPtr()));
    }

    long matmul() {
      try (Tensor r = a.matmul(b)) {
        return r.dataPtr();
      }
    }

    long sgemm() {
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasNoTrans, n, n, n, 1f, pa, n, pb, n, 0f, pc, n);
      return c.dataPtr();
    }

    @Override
    public void close() {
      a.close();
      b.close();
      c.close();
    }
  }

  Operands m1024, m2048;

  @Setup
  public void setup() {
    Loader.load(openblas_nolapack.class);
    m1024 = new Operands(1024);
    m2048 = new Operands(2048);
  }

  @TearDown
  public void tearDown() {
    m1024.close();
    m2048.close();
  }

  @Benchmark public long matmul1024() { return m1024.matmul(); }
  @Benchmark public long matmul1024_sgemm() { return m1024.sgemm(); }
  @Benchmark public long matmul2048() { return m2048.matmul(); }
  @Benchmark public long matmul2048_sgemm() { return m2048.sgemm(); }
}
