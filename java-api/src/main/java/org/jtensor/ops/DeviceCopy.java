package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.core.TensorImpl;
import org.jtensor.dispatch.DeviceTransfer;

/**
 * copy_ across devices (CPU and CUDA), as PyTorch's copy_: src is made contiguous in dst's dtype
 * on its own device, its bytes cross once, and dst's own device broadcasts it into dst's strides.
 */
final class DeviceCopy {
  private DeviceCopy() {}

  /** dst.copy_(src) for tensors on two devices; the caller has checked shapes and writability. */
  static void copy(String op, TensorImpl dst, TensorImpl src) {
    TensorImpl packed = DataOps.contiguousAs(op, src, dst.dtype());
    try {
      if (dst.isContiguous() && Arrays.equals(dst.sizes(), src.sizes())) {
        DeviceTransfer.copyDense(op, dst, packed);
        dst.bumpVersion();
        return;
      }
      TensorImpl landed = DataOps.empty(op, src.sizes(), dst.dtype(), dst.device());
      try {
        DeviceTransfer.copyDense(op, landed, packed);
        DataOps.copyInto(op, dst, landed);
      } finally {
        landed.release();
      }
    } finally {
      packed.release();
    }
  }
}
