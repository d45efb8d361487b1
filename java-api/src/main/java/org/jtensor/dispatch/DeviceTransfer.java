package org.jtensor.dispatch;

import org.jtensor.bindings.JtCuda;
import org.jtensor.core.KernelStatus;
import org.jtensor.core.TensorImpl;

/** Bytes between the host and a CUDA device: the one primitive a copy across devices needs. */
public final class DeviceTransfer {
  private DeviceTransfer() {}

  /**
   * Copies src's bytes into dst, both contiguous with the same dtype and numel, one on the CPU and
   * the other on CUDA (whose backend must be available: Dispatcher.backend checked it). Waits for
   * the copy, so the host side may be freed once this returns.
   */
  public static void copyDense(String op, TensorImpl dst, TensorImpl src) {
    TensorImpl.Meta dm = dst.meta(), sm = src.meta();  // the bytes counted from the snapshots held
    if (!dm.contiguous || !sm.contiguous || dm.dtype != sm.dtype || dm.numel != sm.numel) {
      throw new IllegalArgumentException(op + "(): a transfer needs two contiguous tensors of one dtype and size");
    }
    boolean toDevice = src.device().isCpu();
    Dispatcher.backend(toDevice ? dst.device() : src.device());  // CUDA available, or why not
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.flatOutput(dm), s = held.flatAddress(sm);
      long nbytes = dm.numel * dm.dtype.itemSize();
      int status = toDevice ? JtCuda.jtc_memcpy_to_device(d, s, nbytes) : JtCuda.jtc_memcpy_to_host(d, s, nbytes);
      if (KernelStatus.of(status) != KernelStatus.OK) throw new IllegalStateException(op + "(): CUDA error: " + JtCuda.jtc_last_error());
    }
  }

  /**
   * Copies a pinned CPU tensor's bytes into dst on CUDA, queued on the current stream without
   * waiting (PyTorch's non_blocking=True): both contiguous, of one dtype and numel. The source's
   * block is recorded on that stream, so closing src at once cannot let its bytes be reused (or
   * given back to the system) before the copy has read them.
   */
  public static void copyToDeviceAsync(String op, TensorImpl dst, TensorImpl src) {
    TensorImpl.Meta dm = dst.meta(), sm = src.meta();
    if (!dm.contiguous || !sm.contiguous || dm.dtype != sm.dtype || dm.numel != sm.numel
        || !sm.storage.isPinned() || dm.storage.device().isCpu()) {
      throw new IllegalArgumentException(op + "(): an asynchronous transfer needs a contiguous pinned CPU tensor and a "
          + "contiguous CUDA tensor of one dtype and size");
    }
    Dispatcher.backend(dst.device());
    try (HeldOperands held = new HeldOperands(op)) {
      long d = held.flatOutput(dm), s = held.flatAddress(sm);
      if (JtCuda.jtc_memcpy_to_device_async(d, s, dm.numel * dm.dtype.itemSize()) != 0) {
        throw new IllegalStateException(op + "(): CUDA error: " + JtCuda.jtc_last_error());
      }
      sm.storage.recordStream(op, JtCuda.jtc_current_stream());
    }
  }
}
