package org.jtensor.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.List;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.bindings.JtNative;
import org.junit.jupiter.api.Test;

/**
 * Where this process cannot run CUDA (a build without nvcc, no driver, no runtime, no GPU), CUDA
 * is reported unavailable with the missing piece named, and a CUDA tensor is refused with
 * PyTorch's words and that reason; nothing crashes. A GPU machine skips these (tag cuda covers it).
 */
class CudaAvailabilityTest {
  /** Each missing piece, as the reason names it. */
  private static final List<String> PIECES =
      List.of("libjtensor_cuda.so", "libcuda.so.1", "libcudart.so.13", "org.bytedeco:cuda", "cudaGetDeviceCount");

  @Test
  void unavailableCudaNamesTheMissingPiece() {
    assumeFalse(Cuda.isAvailable());
    String reason = Cuda.unavailableReason();
    assertNotNull(reason);
    assertTrue(PIECES.stream().anyMatch(reason::contains), reason);
    assertEquals(0, Cuda.deviceCount());
    assertSame(reason, Cuda.unavailableReason(), "probed once");
  }

  /** A jar with libjtensor_cuda.so on a machine without the NVIDIA driver (this project's build machines). */
  @Test
  void aCudaBuildWithoutTheDriverSaysSo() {
    assumeFalse(Cuda.isAvailable());
    boolean built = JtNative.class.getResource(org.bytedeco.javacpp.Loader.getPlatform() + "/libjtensor_cuda.so") != null;
    String reason = Cuda.unavailableReason();
    if (!built) {
      assertTrue(reason.startsWith("no libjtensor_cuda.so in jtensor's"), reason);
    } else if (reason.contains("libcuda.so.1")) {
      assertTrue(reason.startsWith("libcuda.so.1 not found: "), reason);
    }
  }

  @Test
  void cudaTensorsAreRefusedWithTheReason() {
    assumeFalse(Cuda.isAvailable());
    String reason = Cuda.unavailableReason();
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> Tensor.zeros(new long[] {2}, DType.FLOAT32, Device.cuda(0)));
    assertTrue(e.getMessage().endsWith("(" + reason + ")"), e.getMessage());
    assertTrue(e.getMessage().startsWith("jtensor not compiled with CUDA enabled")
        || e.getMessage().startsWith("Found no NVIDIA driver on your system")
        || e.getMessage().startsWith("Found no CUDA runtime (libcudart.so.13)")
        || e.getMessage().startsWith("No CUDA GPUs are available")
        || e.getMessage().startsWith("the CUDA presets"), e.getMessage());
    if (reason.contains("libcuda.so.1")) assertTrue(e.getMessage().startsWith("Found no NVIDIA driver on your system"));
    try (Tensor t = Tensor.ones(2); Tensor sum = t.sum()) {
      assertEquals(e.getMessage(), assertThrows(UnsupportedOperationException.class, t::cuda).getMessage());
      assertThrows(UnsupportedOperationException.class, () -> t.to(Device.cuda(0)));
      assertThrows(UnsupportedOperationException.class, () -> Tensor.empty(new long[] {3}, DType.INT64, Device.of("cuda:1")));
      assertEquals(2.0, sum.item());  // the CPU carries on
    }
    assertThrows(UnsupportedOperationException.class, Cuda::synchronize);
  }

  @Test
  void cpuAndToCpuAreTheSameStorage() {
    try (Tensor t = Tensor.arange(4); Tensor c = t.cpu(); Tensor d = t.to(Device.CPU)) {
      assertEquals(t.dataPtr(), c.dataPtr());
      assertEquals(t.dataPtr(), d.dataPtr());
    }
  }

  /** The one device check, device-generic: META against CPU stands in for CUDA against CPU here. */
  @Test
  void opsMixingDevicesFailWithPyTorchsMessage() {
    try (TensorScope s = TensorScope.open()) {
      Tensor cpu = Tensor.ones(2, 2);
      Tensor meta = Tensor.empty(new long[] {2, 2}, DType.FLOAT32, Device.META);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cpu.add(meta));
      assertEquals("add(): Expected all tensors to be on the same device, but found at least two devices, cpu and meta!",
          e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> meta.mul(cpu));
      assertEquals("mul(): Expected all tensors to be on the same device, but found at least two devices, meta and cpu!",
          e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> cpu.matmul(meta));
      assertTrue(e.getMessage().endsWith("Expected all tensors to be on the same device, but found at least two devices, cpu and meta!"),
          e.getMessage());
      Tensor index = Tensor.zeros(new long[] {2, 2}, DType.INT64, Device.META);
      e = assertThrows(IllegalArgumentException.class, () -> cpu.gather(1, index));
      assertTrue(e.getMessage().endsWith("found at least two devices, cpu and meta!"), e.getMessage());
    }
  }
}
