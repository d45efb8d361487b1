package org.jtensor;

import org.jtensor.cuda.Cuda;
import org.jtensor.dispatch.CudaMatmul;

/**
 * CUDA matmul throughput from Java, on a GPU machine: n x n @ n x n (default 8192) for float32
 * (TF32 off, then on), bfloat16 and float16, through cuBLAS and through jtensor's own kernel,
 * in TFLOP/s (2 n^3 per product), over 10 products queued back to back after 3 warm-ups. The issue's
 * targets: cuBLAS within 3% of PyTorch (float32 51.6, bfloat16 786, float16 753 TFLOP/s on an
 * H100), the own kernel at least 40% of cuBLAS at bfloat16. Run from the GPU bundle:
 * {@code jre/bin/java -cp "test-classes:lib/*" org.jtensor.CudaGemmBench [n]}.
 */
public final class CudaGemmBench {
  private CudaGemmBench() {}

  public static void main(String[] args) {
    if (!Cuda.isAvailable()) {
      System.err.println("CudaGemmBench: CUDA unavailable: " + Cuda.unavailableReason());
      System.exit(3);
    }
    long n = args.length > 0 ? Long.parseLong(args[0]) : 8192;
    DType[] dtypes = {DType.FLOAT32, DType.BFLOAT16, DType.FLOAT16};
    for (boolean cublas : new boolean[] {true, false}) {
      CudaMatmul.setUseCublas(cublas);
      for (DType dt : dtypes) {
        for (boolean tf32 : dt == DType.FLOAT32 && cublas ? new boolean[] {false, true} : new boolean[] {false}) {
          CudaMatmul.setAllowTf32(tf32);
          System.out.printf("%-12s %-8s%s %d^2: %8.1f TFLOP/s%n", cublas ? "cuBLAS" : "jtensor own", dt,
              tf32 ? " tf32" : "", n, tflops(dt, n));
        }
      }
    }
    CudaMatmul.setUseCublas(true);
    CudaMatmul.setAllowTf32(false);
  }

  private static double tflops(DType dt, long n) {
    Device gpu = Device.cuda(0);
    try (Tensor a = Tensor.ones(new long[] {n, n}, dt, gpu); Tensor b = Tensor.ones(new long[] {n, n}, dt, gpu)) {
      for (int w = 0; w < 3; w++) {
        try (Tensor c = a.matmul(b)) {
          Cuda.synchronize();
        }
      }
      // 10 products queued back to back, one wait: the host's cost per call overlaps the GPU's work
      long t0 = System.nanoTime();
      int reps = 10;
      for (int r = 0; r < reps; r++) {
        try (Tensor c = a.matmul(b)) {
          // freed to the stream-ordered cache at once; the next product may reuse it after this one
        }
      }
      Cuda.synchronize();
      double seconds = (System.nanoTime() - t0) * 1e-9 / reps;
      return 2.0 * n * n * n / seconds / 1e12;
    }
  }
}
