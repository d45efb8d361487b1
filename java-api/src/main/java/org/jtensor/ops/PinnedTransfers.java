package org.jtensor.ops;

import org.jtensor.Device;
import org.jtensor.access.SharedSecrets;
import org.jtensor.core.Shapes;
import org.jtensor.core.StorageImpl;
import org.jtensor.core.TensorImpl;
import org.jtensor.cuda.CudaStream;
import org.jtensor.dispatch.DeviceTransfer;
import org.jtensor.dispatch.PinnedHost;

/** pinMemory, the asynchronous host-to-device copy, and recordStream (CudaMethods). */
public final class PinnedTransfers {
  private PinnedTransfers() {}

  /** A pinned copy of a CPU tensor, dense strides kept (empty_like's preserve_format). */
  public static TensorImpl pin(String op, TensorImpl t) {
    if (!t.device().isCpu()) {
      throw new IllegalArgumentException(op + "(): cannot pin a " + t.device() + " tensor: only dense CPU tensors can be pinned");
    }
    long[] sizes = t.sizes(), strides = Shapes.preservedStrides(sizes, t.strides());
    long nbytes = Shapes.storageBytesNeeded(op, sizes, strides, 0, t.dtype().itemSize());
    Object what = new Object() {  // formatted only if a leak is reported
      @Override
      public String toString() {
        return "pinned " + t.dtype() + " tensor of size " + Shapes.str(sizes);
      }
    };
    StorageImpl storage = PinnedHost.allocate(op, nbytes, what);
    TensorImpl out = TensorImpl.create(storage, t.dtype(), sizes.clone(), strides, 0);
    try {
      DataOps.copyInto(op, out, t);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
    return out;
  }

  /** Whether to(device, true) copies t without waiting: a contiguous pinned CPU tensor going to CUDA. */
  public static boolean copiesAsync(TensorImpl t, Device device) {
    return device != null && device.type() == Device.Type.CUDA && t.device().isCpu() && t.storage().isPinned() && t.isContiguous();
  }

  public static TensorImpl toDeviceAsync(String op, TensorImpl t, Device device) {
    TensorImpl out = DataOps.empty(op, t.sizes(), t.dtype(), device);  // allocated for the current stream, which copies
    try {
      if (out.numel() > 0) DeviceTransfer.copyToDeviceAsync(op, out, t);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
    return out;
  }

  public static void recordStream(String op, TensorImpl t, CudaStream stream) {
    if (stream == null) throw new IllegalArgumentException(op + "(): stream must not be null");
    if (t.device().isCpu() ? !t.storage().isPinned() : !t.device().equals(stream.device())) {
      throw new IllegalArgumentException(op + "(): expected a tensor on the stream's device " + stream.device()
          + " or in pinned host memory, got a " + (t.device().isCpu() ? "non-pinned " : "") + t.device() + " tensor");
    }
    SharedSecrets.cuda().hold(stream, op);
    try {
      t.storage().recordStream(op, stream.cudaStream());
    } finally {
      SharedSecrets.cuda().unhold(stream);
    }
  }
}
