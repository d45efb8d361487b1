package org.jtensor.dispatch;

/**
 * torch.backends.cuda.matmul for jtensor: whether float32 GEMMs on CUDA may use TF32 tensor
 * cores (inputs rounded to 10 mantissa bits, float accumulation). Off by default, as in PyTorch
 * since 1.12; the system property {@code jtensor.cuda.matmul.allowTf32=true} turns it on at start.
 * And whether cuBLAS is used where the machine has it (default), or jtensor's own GEMM kernel
 * everywhere ({@code jtensor.cuda.matmul.cublas=false}): for tests and benchmarks of that kernel.
 * Names no CUDA class: setting them loads nothing.
 */
public final class CudaMatmul {
  private static volatile boolean allowTf32 = Boolean.getBoolean("jtensor.cuda.matmul.allowTf32");
  private static volatile boolean useCublas = !"false".equals(System.getProperty("jtensor.cuda.matmul.cublas"));

  private CudaMatmul() {}

  /** As torch.backends.cuda.matmul.allow_tf32. */
  public static boolean allowTf32() {
    return allowTf32;
  }

  public static void setAllowTf32(boolean allow) {
    allowTf32 = allow;
  }

  /** True unless turned off: CUDA GEMMs go to cuBLAS where it loaded and takes the dtype. */
  public static boolean useCublas() {
    return useCublas;
  }

  public static void setUseCublas(boolean use) {
    useCublas = use;
  }

  /**
   * Why CUDA GEMMs of float dtypes cannot reach cuBLAS on this machine (libcublas.so.13 or the
   * presets missing), or null when cuBLAS loaded. The first call loads it.
   */
  public static String cublasUnavailableReason() {
    return CudaBlas.unavailableReason();
  }
}
