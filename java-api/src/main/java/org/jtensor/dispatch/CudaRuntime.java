package org.jtensor.dispatch;

import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;

/**
 * The CUDA runtime services Java needs, through the bytedeco CUDA presets (DESIGN §8): the only
 * class that names them, so none of their classes load before CudaProbe asks. Their JNI library
 * links the machine's libcudart.so.13 (and libcuda.so.1); jtensor's own libjtensor_cuda.so, loaded
 * after it, resolves the same libcudart.so.13, so both share one runtime and one context.
 */
final class CudaRuntime {
  private CudaRuntime() {}

  /**
   * Loads the presets (UnsatisfiedLinkError naming the library missing, NoClassDefFoundError when they
   * are absent) and answers why there is no GPU to run on, or null when there is one.
   */
  static String noDeviceReason() {
    Loader.load(cudart.class);
    int[] n = new int[1];
    int err = cudart.cudaGetDeviceCount(n);
    if (err == cudart.cudaErrorInsufficientDriver) {
      return "the NVIDIA driver is older than CUDA 13 needs: cudaGetDeviceCount returned " + errorName(err);
    }
    if (err != cudart.cudaSuccess) return "cudaGetDeviceCount returned " + errorName(err);
    return n[0] == 0 ? "cudaGetDeviceCount found 0 devices" : null;
  }

  static int deviceCount() {
    int[] n = new int[1];
    return cudart.cudaGetDeviceCount(n) == cudart.cudaSuccess ? n[0] : 0;
  }

  /** Waits for every stream of the current device; throws IllegalStateException on a CUDA error. */
  static void synchronize(String op) {
    check(op, cudart.cudaDeviceSynchronize());
  }

  static void check(String op, int err) {
    if (err != cudart.cudaSuccess) throw new IllegalStateException(op + "(): CUDA error: " + errorName(err));
  }

  /** "cudaErrorNoDevice: no CUDA-capable device is detected". */
  static String errorName(int err) {
    return cudart.cudaGetErrorName(err).getString() + ": " + cudart.cudaGetErrorString(err).getString();
  }

  /** A device (or stream, event) address as the Pointer the presets take. */
  static Pointer at(long addr) {
    return new Pointer() {
      {
        address = addr;
      }
    };
  }
}
