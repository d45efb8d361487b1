package org.jtensor;

import org.jtensor.core.TensorImpl;
import org.jtensor.cuda.CudaEvent;
import org.jtensor.cuda.CudaStream;
import org.jtensor.ops.Ops;
import org.jtensor.ops.PinnedTransfers;
import org.jtensor.ops.Recorder;

/**
 * Pinned memory, asynchronous copies to a GPU and recordStream, as PyTorch's tensor methods.
 * Inherited by {@link Tensor}; streams and events are {@link CudaStream} and {@link CudaEvent}.
 */
public sealed interface CudaMethods permits Tensor {
  private TensorImpl impl(String op) {
    return ((Tensor) this).impl(op);
  }

  /**
   * A copy of this CPU tensor in page-locked (pinned) memory, from which {@code to(device, true)}
   * copies to a GPU asynchronously; this tensor (a new handle) when it is pinned already. Dense
   * tensors keep their strides, as pin_memory does.
   *
   * @throws IllegalArgumentException when the tensor is not on the CPU
   * @throws UnsupportedOperationException when this process cannot run CUDA, naming why
   */
  default Tensor pinMemory() {
    TensorImpl t = impl("pinMemory");
    if (t.storage().isPinned()) return ((Tensor) this).same("pinMemory");
    return Tensor.wrap(PinnedTransfers.pin("pinMemory", t));
  }

  /** Whether the tensor's bytes are pinned host memory; false wherever CUDA is unavailable. */
  default boolean isPinned() {
    return impl("isPinned").storage().isPinned();
  }

  /**
   * {@code to(device)}, except that a contiguous pinned CPU tensor is copied to a GPU on the current
   * stream without waiting when nonBlocking (PyTorch's non_blocking=True): the result is ready for
   * later work on that stream, and the host may change or close this tensor at once (its pinned
   * block is not reused before the copy has read it). Every other copy waits for its bytes.
   */
  default Tensor to(Device device, boolean nonBlocking) {
    TensorImpl t = impl("to");
    if (nonBlocking && PinnedTransfers.copiesAsync(t, device)) {
      return Tensor.wrap(Recorder.recorded(Ops.TO_COPY, "to", new TensorImpl[] {t}, null, PinnedTransfers.toDeviceAsync("to", t, device)));
    }
    return ((Tensor) this).to(device);
  }

  /** {@code to(Device.cuda(0), nonBlocking)}: torch's {@code t.cuda(non_blocking=...)}. */
  default Tensor cuda(boolean nonBlocking) {
    return to(Device.cuda(0), nonBlocking);
  }

  /**
   * torch's record_stream: this tensor's memory is also used by work queued on stream, so once
   * every handle over it is closed it is not reused before that work has run. Needed when a tensor
   * allocated on one stream is used on another.
   *
   * @throws IllegalArgumentException for a tensor neither on CUDA nor pinned, or a stream of another device
   */
  default void recordStream(CudaStream stream) {
    TensorImpl t = impl("recordStream");
    PinnedTransfers.recordStream("recordStream", t, stream);
  }
}
