package org.jtensor.dispatch;

import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.jtensor.Device;
import org.jtensor.bindings.JtCuda;

/**
 * StreamRuntime over the bytedeco CUDA presets (DESIGN §8), sharing libcudart.so.13 and its
 * context with jtensor's kernels; the current stream is libjtensor_cuda's per-thread one.
 */
final class CudaStreamRuntime implements StreamRuntime {
  static final CudaStreamRuntime INSTANCE = new CudaStreamRuntime();

  private CudaStreamRuntime() {}

  @Override
  public void requireDevice(String op, Device device) {
    CudaProbe probe = CudaProbe.get();
    probe.require(op);
    if (device.index() >= probe.deviceCount()) {
      throw new IllegalArgumentException(op + "(): " + device + ": CUDA error: invalid device ordinal (" + probe.deviceCount()
          + " devices)");
    }
    if (device.index() != 0) throw new UnsupportedOperationException(op + "(): " + device + ": jtensor runs CUDA on cuda:0 only so far");
  }

  @Override
  public int[] priorityRange(int device) {
    int[] least = new int[1], greatest = new int[1];
    int err = cudart.cudaSetDevice(device);
    if (err == 0) err = cudart.cudaDeviceGetStreamPriorityRange(least, greatest);
    return err == 0 ? new int[] {least[0], greatest[0]} : new int[] {0, 0};
  }

  @Override
  public int createStream(int device, int priority, long[] out) {
    CUstream_st s = new CUstream_st();
    int err = cudart.cudaSetDevice(device);
    if (err == 0) err = cudart.cudaStreamCreateWithPriority(s, cudart.cudaStreamNonBlocking, priority);
    out[0] = s.address();
    return err;
  }

  @Override public int destroyStream(long stream) { return cudart.cudaStreamDestroy(stream(stream)); }
  @Override public int synchronizeStream(long stream) { return cudart.cudaStreamSynchronize(stream(stream)); }
  @Override public int queryStream(long stream) { return cudart.cudaStreamQuery(stream(stream)); }

  @Override
  public int createEvent(int device, boolean timing, boolean blocking, long[] out) {
    CUevent_st e = new CUevent_st();
    int flags = (timing ? 0 : cudart.cudaEventDisableTiming) | (blocking ? cudart.cudaEventBlockingSync : 0);
    int err = cudart.cudaSetDevice(device);
    if (err == 0) err = cudart.cudaEventCreateWithFlags(e, flags);
    out[0] = e.address();
    return err;
  }

  @Override public int destroyEvent(long event) { return cudart.cudaEventDestroy(event(event)); }
  @Override public int recordEvent(long event, long stream) { return cudart.cudaEventRecord(event(event), stream(stream)); }
  @Override public int streamWaitEvent(long stream, long event) { return cudart.cudaStreamWaitEvent(stream(stream), event(event), 0); }
  @Override public int queryEvent(long event) { return cudart.cudaEventQuery(event(event)); }
  @Override public int synchronizeEvent(long event) { return cudart.cudaEventSynchronize(event(event)); }

  @Override
  public int elapsedTime(long start, long end, float[] out) {
    return cudart.cudaEventElapsedTime(out, event(start), event(end));
  }

  @Override
  public String errorName(int error) {
    return CudaRuntime.errorName(error);
  }

  @Override
  public void setCurrentStream(long stream) {
    JtCuda.jtc_set_current_stream(stream);
  }

  /** The legacy default stream is NULL to the runtime. */
  private static CUstream_st stream(long handle) {
    return handle == 0 ? null : new CUstream_st(CudaRuntime.at(handle));
  }

  private static CUevent_st event(long handle) {
    return new CUevent_st(CudaRuntime.at(handle));
  }
}
