package org.jtensor.benchmarks.gpu;

import java.util.concurrent.TimeUnit;
import org.jtensor.cuda.Cuda;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Generator;
import org.jtensor.Tensor;
import org.jtensor.autograd.GradMode;
import org.jtensor.nn.Functional;
import org.jtensor.dispatch.CudaMatmul;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The GPU section of docs/performance.md, on cuda:0, float32 unless named: each benchmark queues
 * its op {@code REPS} times (or 1000 for the host-bound ones) and then waits for the device
 * (Cuda.synchronize()), so a time is the device's work per op, not a launch's. GpuFigures holds
 * each one's bytes or FLOPs and PyTorch's figure on an H100; GpuReport runs them and prints the
 * rates and ratios. Run through GpuReport, which skips them where CUDA is unavailable.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class GpuBenchmark {
  /** -Djt.cuda.dryRun=true (gpu-check.sh --dry-run): the CPU stands in, at sizes it runs in moments, to check the benchmarks themselves. */
  static final boolean DRY_RUN = Boolean.getBoolean("jt.cuda.dryRun");
  static final Device GPU = DRY_RUN ? Device.CPU : Device.cuda(0);
  static final int REPS = 10;
  static final long N256M = DRY_RUN ? 1L << 20 : 256L << 20, SIDE = DRY_RUN ? 1024 : 16384, GEMM = DRY_RUN ? 256 : 8192;

  static void requireCuda() {
    if (!DRY_RUN && !Cuda.isAvailable()) throw new IllegalStateException("GpuBenchmark needs CUDA: " + Cuda.unavailableReason());
  }

  /** Waits for the device's queued work (nothing to wait for on the CPU of a dry run). */
  static void synchronize() {
    if (!DRY_RUN) Cuda.synchronize();
  }

  /** Bandwidth operands: 256M-element vectors and 16384² matrices, filled on the device. */
  @State(Scope.Benchmark)
  public static class Big {
    Tensor a, b, dst, m, n;

    @Setup
    public void setup() {
      requireCuda();
      a = Tensor.full(new long[] {N256M}, 1.5, DType.FLOAT32, GPU);
      b = Tensor.full(new long[] {N256M}, 2.5, DType.FLOAT32, GPU);
      dst = Tensor.empty(new long[] {N256M}, DType.FLOAT32, GPU);
      m = Tensor.full(new long[] {SIDE, SIDE}, 0.5, DType.FLOAT32, GPU);
      n = Tensor.full(new long[] {SIDE, SIDE}, 0.25, DType.FLOAT32, GPU);
      synchronize();
    }

    @TearDown
    public void tearDown() {
      for (Tensor t : new Tensor[] {a, b, dst, m, n}) t.close();
    }
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void copy1GiB(Big s) {
    for (int r = 0; r < REPS; r++) s.dst.copy_(s.a);
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void add256M(Big s) {
    for (int r = 0; r < REPS; r++) s.a.add(s.b).close();  // the output returns to the stream-ordered cache
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void sum256M(Big s) {
    for (int r = 0; r < REPS; r++) s.a.sum().close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void sumDim0(Big s) {
    for (int r = 0; r < REPS; r++) s.m.sum(0).close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void sumDim1(Big s) {
    for (int r = 0; r < REPS; r++) s.m.sum(1).close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void addTransposed(Big s) {
    try (Tensor nt = s.n.t()) {
      for (int r = 0; r < REPS; r++) s.m.add(nt).close();
    }
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void softmaxDim1(Big s) {
    for (int r = 0; r < REPS; r++) s.m.softmax(1).close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void layerNormDim1(Big s) {
    for (int r = 0; r < REPS; r++) Functional.layerNorm(s.m, 1, null, null, 1e-5).close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void batchNorm64Channels(Big s) {
    try (Tensor x = s.m.view(SIDE / 64, 64, SIDE / 128, 128)) {  // [256, 64, 128, 128] on a GPU; smaller in the dry run
      for (int r = 0; r < REPS; r++) Functional.batchNorm(x, null, null, null, null, true, 0.1, 1e-5).close();
    }
    synchronize();
  }

  /**
   * Attention operands: [4, 8, T, 64] query, key and value requiring gradients, and the output's
   * gradient (T 1024; 128 in the dry run), in float32 (CUDA cores) or float16 and bfloat16 (tensor cores).
   */
  @State(Scope.Benchmark)
  public static class Heads {
    static final long T = DRY_RUN ? 128 : 1024;
    @Param({"float32", "float16", "bfloat16"})
    public String dtype;
    Tensor q, k, v, up;

    @Setup
    public void setup() {
      requireCuda();
      Generator g = new Generator(0);
      long[] shape = {4, 8, T, 64};
      Tensor[] made = new Tensor[4];
      for (int i = 0; i < 4; i++) {
        try (Tensor host = Tensor.randn(shape, g); Tensor typed = host.to(DType.valueOf(dtype.toUpperCase()))) {
          made[i] = typed.to(GPU);
        }
      }
      q = made[0].requiresGrad_();
      k = made[1].requiresGrad_();
      v = made[2].requiresGrad_();
      up = made[3];
      synchronize();
    }

    @TearDown
    public void tearDown() {
      for (Tensor t : new Tensor[] {q, k, v, up}) t.close();
    }
  }

  /** Causal scaled dot-product attention forward and backward (the gradients accumulate into q, k and v, as PyTorch's do). */
  @Benchmark @OperationsPerInvocation(REPS)
  public void sdpaCausalForwardBackward(Heads s) {
    for (int r = 0; r < REPS; r++) {
      try (Tensor out = Functional.scaledDotProductAttention(s.q, s.k, s.v, null, 0, true)) {
        out.backward(s.up);
      }
    }
    synchronize();
  }

  /** The same attention's forward alone, without autograd (inference, a serving backend's call). */
  @Benchmark @OperationsPerInvocation(REPS)
  public void sdpaCausalForward(Heads s) {
    try (GradMode.Scope off = GradMode.noGrad()) {
      for (int r = 0; r < REPS; r++) Functional.scaledDotProductAttention(s.q, s.k, s.v, null, 0, true).close();
    }
    synchronize();
  }

  /** 8192² operands of random values (PyTorch's figures are on random data): cuBLAS in three dtypes, jtensor's own GEMM in bfloat16. */
  @State(Scope.Benchmark)
  public static class Gemm {
    @Param({"float32", "bfloat16", "float16", "own-bfloat16"})
    public String gemm;

    Tensor a, b;

    @Setup
    public void setup() {
      requireCuda();
      CudaMatmul.setUseCublas(!gemm.startsWith("own-"));
      String noCublas = DRY_RUN || gemm.startsWith("own-") ? null : CudaMatmul.cublasUnavailableReason();
      if (noCublas != null) throw new IllegalStateException("matmul gemm=" + gemm + " is a cuBLAS case: " + noCublas);
      CudaMatmul.setAllowTf32(false);
      DType dtype = DType.fromName(gemm.replace("own-", ""));
      Generator g = new Generator(0);
      try (Tensor ra = Tensor.rand(new long[] {GEMM, GEMM}, g); Tensor rb = Tensor.rand(new long[] {GEMM, GEMM}, g);
           Tensor ga = ra.to(GPU); Tensor gb = rb.to(GPU)) {
        a = ga.to(dtype);
        b = gb.to(dtype);
      }
      synchronize();
    }

    @TearDown
    public void tearDown() {
      a.close();
      b.close();
      CudaMatmul.setUseCublas(true);
    }
  }

  @Benchmark @OperationsPerInvocation(REPS)
  public void matmul(Gemm s) {
    for (int r = 0; r < REPS; r++) s.a.matmul(s.b).close();
    synchronize();
  }

  /** Two 4-element tensors: an op's cost to the host. */
  @State(Scope.Benchmark)
  public static class Small {
    Tensor a, b;

    @Setup
    public void setup() {
      requireCuda();
      a = Tensor.full(new long[] {4}, 1.0, DType.FLOAT32, GPU);
      b = Tensor.full(new long[] {4}, 2.0, DType.FLOAT32, GPU);
    }

    @TearDown
    public void tearDown() {
      a.close();
      b.close();
    }
  }

  @Benchmark @OperationsPerInvocation(1000)
  public void add4HostCost(Small s) {
    for (int r = 0; r < 1000; r++) s.a.add(s.b).close();
    synchronize();
  }

  @Benchmark @OperationsPerInvocation(1000)
  public void alloc1MiBCached(Small s) {
    for (int r = 0; r < 1000; r++) Tensor.empty(new long[] {1 << 18}, DType.FLOAT32, GPU).close();
  }
}
