package org.jtensor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.bindings.JtNative;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/** Each storage is owned by its device's allocator, natively too; Memory asks the device's backend. */
class DeviceMemoryTest {
  @Test
  void aStorageRecordsItsDeviceNatively() {
    int cpu = NativeMemory.deviceCode(Device.Type.CPU);
    assertEquals(0, cpu);
    long h = JtNative.jt_storage_new(cpu, 1024);
    try {
      assertEquals(cpu, JtNative.jt_storage_device(h));
    } finally {
      JtNative.jt_storage_release(h);
    }
  }

  @Test
  void aDeviceWithoutAnAllocatorGetsNoStorageAndNoStatistics() {
    int cuda = NativeMemory.deviceCode(Device.Type.CUDA);
    if (JtNative.jt_device_has_allocator(cuda) != 0) return;  // a CUDA build with a GPU: covered by its own tests
    assertEquals(0, JtNative.jt_storage_new(cuda, 1024));
    assertEquals(0, JtNative.jt_memory_limit(cuda));
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> Memory.memoryStats(Device.cuda(0)));
    assertEquals("memoryStats(): no cuda:0 allocator in this build", e.getMessage());
  }

  @Test
  void memoryReportsWhatTheDevicesAllocatorCounts() {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Tensor t = Tensor.empty(1 << 16); org.jtensor.Storage s = t.untypedStorage()) {
      assertTrue(Memory.memoryAllocated(Device.CPU) >= before + (4L << 16));
      assertEquals(Device.CPU, s.device());
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU));
    assertTrue(Memory.memoryStats(Device.META).isEmpty());
  }
}
