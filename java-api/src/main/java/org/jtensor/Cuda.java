package org.jtensor;

import org.jtensor.dispatch.CudaMatmul;
import org.jtensor.dispatch.CudaProbe;

/**
 * torch.cuda for jtensor: whether this process can run CUDA tensors, and why not. Nothing CUDA
 * loads until one of these (or a CUDA device) is first asked for; a machine without CUDA then
 * gets false and the missing piece named, never a failure to load jtensor.
 */
public final class Cuda {
  private Cuda() {}

  /** True when jtensor was built with CUDA, the driver and runtime load, and there is a GPU. */
  public static boolean isAvailable() {
    return CudaProbe.get().available();
  }

  /**
   * Why CUDA is not available, naming the missing piece (jtensor built without CUDA, no NVIDIA
   * driver libcuda.so.1, no CUDA runtime libcudart.so.13, no GPU); null when it is available.
   */
  public static String unavailableReason() {
    return CudaProbe.get().reason();
  }

  /** The number of CUDA GPUs; 0 when CUDA is not available (as torch.cuda.device_count()). */
  public static int deviceCount() {
    return CudaProbe.get().deviceCount();
  }

  /**
   * Waits until every kernel and copy queued on the device has finished.
   *
   * @throws UnsupportedOperationException when CUDA is not available, naming why
   */
  public static void synchronize() {
    CudaProbe.get().synchronize();
  }

  /**
   * As torch.backends.cuda.matmul.allow_tf32: whether float32 matmuls on CUDA may round their
   * inputs to TF32 on tensor cores (faster, 10 mantissa bits). False by default, as in PyTorch;
   * the system property {@code jtensor.cuda.matmul.allowTf32=true} sets it at start.
   */
  public static boolean matmulAllowTf32() {
    return CudaMatmul.allowTf32();
  }

  public static void setMatmulAllowTf32(boolean allow) {
    CudaMatmul.setAllowTf32(allow);
  }
}
