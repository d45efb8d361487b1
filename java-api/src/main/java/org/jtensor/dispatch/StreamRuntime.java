package org.jtensor.dispatch;

import org.jtensor.Device;

/**
 * What CUDA streams and events ask of the CUDA runtime, with handles as the bits of a
 * cudaStream_t/cudaEvent_t (0: the legacy default stream). Calls answer a cudaError_t (0 for
 * success, {@link #NOT_READY} from a query of unfinished work). {@link #cuda()} is the real one,
 * over the bytedeco presets; tests of the Java logic (scopes, argument checks) give a fake.
 */
public interface StreamRuntime {
  /** cudaErrorNotReady: a query found work still queued. */
  int NOT_READY = 600;

  /** The runtime over the CUDA presets; the caller has checked {@link #requireDevice}. */
  static StreamRuntime cuda() {
    return CudaStreamRuntime.INSTANCE;
  }

  /** Throws, naming op, unless device is a CUDA device this process can run (cuda:0 so far). */
  void requireDevice(String op, Device device);

  /** {least, greatest} priority: lower numbers run first (cudaDeviceGetStreamPriorityRange). */
  int[] priorityRange(int device);

  /** A new stream that does not wait for the legacy default stream (PyTorch's), in out[0]. */
  int createStream(int device, int priority, long[] out);

  int destroyStream(long stream);

  int synchronizeStream(long stream);

  int queryStream(long stream);

  /** A new event (no timing unless asked; blocking: the host sleeps rather than spins in synchronize), in out[0]. */
  int createEvent(int device, boolean timing, boolean blocking, long[] out);

  int destroyEvent(long event);

  int recordEvent(long event, long stream);

  /** Work queued on stream from now on waits for event. */
  int streamWaitEvent(long stream, long event);

  int queryEvent(long event);

  int synchronizeEvent(long event);

  /** Milliseconds from start to end, in out[0]. */
  int elapsedTime(long start, long end, float[] out);

  /** "cudaErrorX: description". */
  String errorName(int error);

  /** The calling thread's current stream for jtensor's kernels, copies, allocations and cuBLAS. */
  void setCurrentStream(long stream);
}
