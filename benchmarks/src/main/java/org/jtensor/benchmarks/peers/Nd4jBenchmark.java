package org.jtensor.benchmarks.peers;

import java.util.concurrent.TimeUnit;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The same cases through ND4J 1.0.0-M2.1 (nd4j-native), outputs allocated and closed. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class Nd4jBenchmark {
  INDArray a, b, bt, s1, s2, m1024a, m1024b, m2048a, m2048b;

  @Setup
  public void setup() {
    a = Nd4j.ones(DataType.FLOAT, 4096, 4096);
    b = Nd4j.ones(DataType.FLOAT, 4096, 4096);
    bt = b.transpose();
    s1 = Nd4j.ones(DataType.FLOAT, 4);
    s2 = Nd4j.ones(DataType.FLOAT, 4);
    m1024a = Nd4j.ones(DataType.FLOAT, 1024, 1024);
    m1024b = Nd4j.ones(DataType.FLOAT, 1024, 1024);
    m2048a = Nd4j.ones(DataType.FLOAT, 2048, 2048);
    m2048b = Nd4j.ones(DataType.FLOAT, 2048, 2048);
  }

  private static long run(INDArray t) {
    long n = t.length();
    t.close();
    return n;
  }

  @Benchmark public long add16M_nd4j() { return run(a.add(b)); }
  @Benchmark public long addTransposedOperand_nd4j() { return run(a.add(bt)); }
  @Benchmark @OutputTimeUnit(TimeUnit.NANOSECONDS) public long add4_nd4j() { return run(s1.add(s2)); }
  @Benchmark public long sumAll_nd4j() { return run(a.sum()); }
  @Benchmark public long sumDim0_nd4j() { return run(a.sum(0)); }
  @Benchmark public long sumDim1_nd4j() { return run(a.sum(1)); }
  @Benchmark public long matmul1024_nd4j() { return run(m1024a.mmul(m1024b)); }
  @Benchmark public long matmul2048_nd4j() { return run(m2048a.mmul(m2048b)); }
}
