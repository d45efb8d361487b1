package org.jtensor.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.bindings.JtNative;
import org.jtensor.dispatch.plan.ElementwisePacker;
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

/** The fixed cost of an op: add of two 4-element tensors, output allocated and closed (target ≤ 300 ns). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class SmallAddBenchmark {
  Tensor a, b;
  long[] floorPlan;

  @Setup
  public void setup() {
    a = Tensor.fromArray(new float[] {1, 2, 3, 4});
    b = Tensor.fromArray(new float[] {5, 6, 7, 8});
    // jt_elementwise's plan for out = a + b over 4 contiguous floats, alpha 1, packed as the library packs it
    long[] unit = {1};
    floorPlan = ElementwisePacker.pack(JtNative.jt_ew_op_id("add"), DType.FLOAT32, DType.FLOAT32, new long[] {4},
        new double[] {1}, null, new long[][] {unit, unit, unit}, null);
    ElementwisePacker.setAddress(floorPlan, 1, a.dataPtr());
    ElementwisePacker.setAddress(floorPlan, 2, b.dataPtr());
  }

  @TearDown
  public void tearDown() {
    a.close();
    b.close();
  }

  /** The op alone: in place, nothing allocated. */
  @Benchmark
  public long add4InPlace() {
    return a.add_(b).storageOffset();
  }

  /** The allocation alone: a 4-element tensor created and closed. */
  @Benchmark
  public long empty4AndClose() {
    try (Tensor c = Tensor.empty(4)) {
      return c.dataPtr();
    }
  }

  /**
   * Peer: the native work of add4 with no Java layer: allocate a storage, read its data pointer,
   * run the add through the same plan entry point, release (four JNI calls).
   */
  @Benchmark
  public long add4_nativeFloor() {
    long s = JtNative.jt_storage_new(0, 16);  // 0: jt_device_type CPU
    long p = JtNative.jt_storage_data(s);
    ElementwisePacker.setAddress(floorPlan, 0, p);
    JtNative.jt_elementwise(floorPlan);
    JtNative.jt_storage_release(s);
    return p;
  }

  @Benchmark
  public long add4() {
    try (Tensor c = a.add(b)) {
      return c.dataPtr();
    }
  }
}
