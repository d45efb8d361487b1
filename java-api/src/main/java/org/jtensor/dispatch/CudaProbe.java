package org.jtensor.dispatch;

import org.bytedeco.javacpp.Loader;
import org.jtensor.bindings.JtCuda;
import org.jtensor.bindings.JtNative;

/**
 * Whether this process can run CUDA, found once, the first time anything asks (Cuda, a CUDA
 * device): a machine without CUDA loads nothing for it and pays nothing until then. Each step
 * names the piece it found missing, in the order a user would fix them.
 */
public final class CudaProbe {
  /** What is missing; the message of the exception a CUDA request then throws, PyTorch's where it has one. */
  enum Missing {
    NONE(""),
    BUILD("jtensor not compiled with CUDA enabled"),
    PRESETS("the CUDA presets are not on the class path"),
    DRIVER("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
        + "from http://www.nvidia.com/Download/index.aspx"),
    RUNTIME("Found no CUDA runtime (libcudart.so.13) on your system"),
    GPU("No CUDA GPUs are available"),
    LIBRARY("jtensor's CUDA library failed to load");

    final String message;

    Missing(String message) {
      this.message = message;
    }
  }

  final Missing missing;
  final String reason;  // the missing piece in detail; null when available
  final int deviceCount;

  private CudaProbe(Missing missing, String reason, int deviceCount) {
    this.missing = missing;
    this.reason = reason;
    this.deviceCount = deviceCount;
  }

  private static final class Holder {
    static final CudaProbe RESULT = run();
  }

  public static CudaProbe get() {
    return Holder.RESULT;
  }

  public boolean available() {
    return missing == Missing.NONE;
  }

  /** The missing piece, named; null when CUDA is available. */
  public String reason() {
    return reason;
  }

  public int deviceCount() {
    return deviceCount;
  }

  /** Waits for every stream of the device (cudaDeviceSynchronize). */
  public void synchronize() {
    if (!available()) throw unavailable();
    CudaRuntime.synchronize("synchronize");
  }

  /** Throws, naming op, when this process cannot run CUDA: unavailable()'s message after "op(): ". */
  public void require(String op) {
    if (!available()) throw new UnsupportedOperationException(op + "(): " + missing.message + " (" + reason + ")");
  }

  /** The exception for a CUDA request this process cannot serve. */
  public UnsupportedOperationException unavailable() {
    return new UnsupportedOperationException(missing.message + " (" + reason + ")");
  }

  private static CudaProbe fail(Missing m, String reason) {
    return new CudaProbe(m, reason, 0);
  }

  /**
   * Whether jtensor's platform jar holds libjtensor_cuda.so, found as JavaCPP's loader finds the
   * libraries it loads (the classifier jar is a module of its own on a module path).
   */
  private static boolean builtWithCuda() {
    try {
      return Loader.findResource(JtNative.class, Loader.getPlatform() + "/libjtensor_cuda.so") != null;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static CudaProbe run() {
    if (!builtWithCuda()) {
      return fail(Missing.BUILD, "no libjtensor_cuda.so in jtensor's " + Loader.getPlatform() + " jar: it was built without nvcc");
    }
    String noGpu;
    try {
      noGpu = CudaRuntime.noDeviceReason();
    } catch (NoClassDefFoundError e) {
      // org.jtensor requires them static: on a module path they resolve only when added
      return fail(Missing.PRESETS, "no org.bytedeco:cuda classes (on a module path: --add-modules org.bytedeco.cuda): "
          + e.getMessage());
    } catch (UnsatisfiedLinkError | ExceptionInInitializerError e) {
      return linkFailure(e);
    }
    if (noGpu != null) return fail(Missing.GPU, noGpu);
    try {
      JtCuda.load();
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      return fail(Missing.LIBRARY, "libjtensor_cuda.so: " + messages(e));
    }
    int count = CudaRuntime.deviceCount();
    try {
      CudaKernels.checkTable();
    } catch (IllegalStateException e) {
      return fail(Missing.LIBRARY, e.getMessage());
    }
    int err = JtCuda.jtc_init();
    if (err != 0) return fail(Missing.LIBRARY, "registering the CUDA allocator failed: " + CudaRuntime.errorName(err));
    return new CudaProbe(Missing.NONE, null, count);
  }

  /** The presets' natives link libcudart.so.13 and libcuda.so.1: the loader's message names the one missing. */
  private static CudaProbe linkFailure(Throwable e) {
    String all = messages(e);
    if (all.contains("libcuda.so")) return fail(Missing.DRIVER, "libcuda.so.1 not found: " + all);
    if (all.contains("libcudart")) return fail(Missing.RUNTIME, "libcudart.so.13 not found: " + all);
    return fail(Missing.LIBRARY, "the CUDA presets failed to load: " + all);
  }

  /** Every message down the cause chain: JavaCPP wraps the loader's own message. */
  static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (b.length() > 0) b.append("; ");
      b.append(t.getMessage());
    }
    return b.toString();
  }
}
