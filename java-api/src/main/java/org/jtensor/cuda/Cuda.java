package org.jtensor.cuda;

import java.util.Map;
import org.jtensor.Device;
import org.jtensor.dispatch.CudaMatmul;
import org.jtensor.dispatch.CudaProbe;
import org.jtensor.dispatch.PinnedHost;

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

  /**
   * The calling thread's current stream on device (torch.cuda.current_stream): the stream its ops
   * on that device run on, its allocations are made for, and its events record on by default.
   * The device's default stream unless a {@link #withStream} scope is open.
   *
   * @throws IllegalArgumentException when device is not a CUDA device
   * @throws UnsupportedOperationException when this process cannot run CUDA, naming why
   */
  public static CudaStream currentStream(Device device) {
    CurrentStream.require("currentStream", device);
    return CurrentStream.of(device);
  }

  /** {@code currentStream(Device.cuda(0))}. */
  public static CudaStream currentStream() {
    return currentStream(Device.cuda(0));
  }

  /** The device's default stream (torch.cuda.default_stream): the legacy default stream, never closed. */
  public static CudaStream defaultStream(Device device) {
    CurrentStream.require("defaultStream", device);
    return CudaStream.defaultOf(device);
  }

  /**
   * torch.cuda.stream(s): until the scope closes, the calling thread's ops on the stream's device
   * run on it, their outputs are allocated for it, and cuBLAS calls are queued on it:
   * {@code try (CudaStreamScope s = Cuda.withStream(stream)) { ... }}. Other threads keep their own
   * current stream. The stream cannot be destroyed while the scope is open (closing it then
   * destroys it when the scope closes).
   */
  public static CudaStreamScope withStream(CudaStream stream) {
    if (stream == null) throw new IllegalArgumentException("withStream(): stream must not be null");
    return stream.open();
  }

  /**
   * The pinned host allocator's statistics (torch.cuda.host_memory_stats), under the caching
   * allocators' key names: allocation, allocated_bytes, segment and reserved_bytes under
   * {@code .all.}, num_device_alloc/num_device_free counting cudaHostAlloc/cudaFreeHost.
   */
  public static Map<String, Long> hostMemoryStats() {
    return PinnedHost.stats("hostMemoryStats");
  }

  /** Gives the cached pinned blocks back to the system (those still read by a queued copy stay until it has run). */
  public static void hostEmptyCache() {
    PinnedHost.emptyCache("hostEmptyCache");
  }
}
