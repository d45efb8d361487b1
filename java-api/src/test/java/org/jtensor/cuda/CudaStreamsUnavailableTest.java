package org.jtensor.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.function.Executable;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Streams, events and pinned memory where this process cannot run CUDA: each request fails with
 * UnsupportedOperationException naming the op and the missing piece (as PyTorch's pin_memory does
 * without a GPU), bad arguments are refused before that, and what needs no GPU still answers.
 */
class CudaStreamsUnavailableTest {
  private static void refused(String op, Executable call) {
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call);
    assertTrue(e.getMessage().startsWith(op + "(): "), e.getMessage());
    assertTrue(e.getMessage().endsWith("(" + Cuda.unavailableReason() + ")"), e.getMessage());
  }

  @Test
  void streamsAndEventsNameTheOpAndWhy() {
    assumeFalse(Cuda.isAvailable());
    refused("currentStream", Cuda::currentStream);
    refused("defaultStream", () -> Cuda.defaultStream(Device.cuda(0)));
    refused("CudaStream", () -> new CudaStream(Device.cuda(0)));
    refused("CudaStream", () -> new CudaStream(Device.cuda(0), -1));
    assertEquals("CudaStream(): expected a CUDA device, got cpu",
        assertThrows(IllegalArgumentException.class, () -> new CudaStream(Device.CPU)).getMessage());
    try (CudaEvent e = new CudaEvent(true)) {  // made lazily: nothing CUDA yet
      assertTrue(e.query());
      e.synchronize();
      assertFalse(e.isRecorded());
      refused("record", e::record);
    }
  }

  @Test
  void pinnedMemoryNeedsCuda() {
    assumeFalse(Cuda.isAvailable());
    try (Tensor t = Tensor.arange(6)) {
      refused("pinMemory", t::pinMemory);
      assertFalse(t.isPinned());
      refused("hostMemoryStats", Cuda::hostMemoryStats);
      refused("hostEmptyCache", Cuda::hostEmptyCache);
      UnsupportedOperationException blocking = assertThrows(UnsupportedOperationException.class, t::cuda);
      assertEquals(blocking.getMessage(), assertThrows(UnsupportedOperationException.class, () -> t.cuda(true)).getMessage());
      try (Tensor same = t.to(Device.CPU, true)) {
        assertEquals(t.dataPtr(), same.dataPtr());
      }
    }
  }

  @Test
  void onlyCpuTensorsArePinned() {
    try (Tensor meta = Tensor.empty(new long[] {2, 3}, DType.FLOAT32, Device.META)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, meta::pinMemory);
      assertEquals("pinMemory(): cannot pin a meta tensor: only dense CPU tensors can be pinned", e.getMessage());
      assertFalse(meta.isPinned());
    }
  }
}
