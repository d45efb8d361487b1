package org.jtensor.dispatch;

import org.jtensor.Device;

/** Device first: every byte-touching primitive reaches its kernel through the device's Backend. */
public final class Dispatcher {
  private static final Backend CPU = new CpuBackend();
  private static final Backend META = new MetaBackend();

  private Dispatcher() {}

  /** The CUDA backend, made when CUDA is first asked for and found available. */
  private static final class Cuda0 {
    static final Backend BACKEND = new CudaBackend(Device.cuda(0));
  }

  public static Backend backend(Device device) {
    switch (device.type()) {
      case CPU: return CPU;
      case META: return META;
      case CUDA: return cuda(device);
      default: throw new UnsupportedOperationException("jtensor was built without a " + device + " backend");
    }
  }

  /**
   * CUDA's backend when this process can run CUDA, else the exception that names what is missing
   * (PyTorch's "Torch not compiled with CUDA enabled", "Found no NVIDIA driver on your system").
   */
  private static Backend cuda(Device device) {
    CudaProbe probe = CudaProbe.get();
    if (!probe.available()) throw probe.unavailable();
    if (device.index() >= probe.deviceCount) {
      throw new IllegalArgumentException(device + ": CUDA error: invalid device ordinal (" + probe.deviceCount + " devices)");
    }
    if (device.index() != 0) throw new UnsupportedOperationException(device + ": jtensor runs CUDA tensors on cuda:0 only so far");
    return Cuda0.BACKEND;
  }
}
