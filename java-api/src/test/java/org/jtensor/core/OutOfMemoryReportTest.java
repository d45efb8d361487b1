package org.jtensor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.junit.jupiter.api.Test;

/**
 * Which message an out-of-memory failure carries: CUDA's allocator writes PyTorch's report itself
 * (its text is checked in full by the native stream_allocator_test, over a fake device); Java
 * raises it unchanged with the request and the stats, and falls back to its own message from the
 * stats for an allocator that reports nothing (the CPU's).
 */
class OutOfMemoryReportTest {
  private static final Map<String, Long> STATS = Map.of("allocated_bytes.all.current", 3L << 20,
      "reserved_bytes.all.current", 4L << 20);

  @Test
  void cudasReportIsTheMessage() {
    String report = "CUDA out of memory. Tried to allocate 80.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which "
        + "60.00 MiB is free. Of the allocated memory 3.00 MiB is allocated by jtensor, and 1024.00 KiB is reserved by "
        + "jtensor but unallocated. If reserved but unallocated memory is large try setting "
        + "JT_CUDA_ALLOC_CONF=max_split_size_mb:N to avoid fragmentation.";
    TensorOutOfMemoryException e = DeviceMemory.outOfMemory("CUDA:0", report, 80L << 20, 0, STATS);
    assertEquals(report, e.getMessage());
    assertEquals(80L << 20, e.requestedBytes());
    assertSame(STATS, e.stats());
  }

  @Test
  void withoutAReportTheStatsSpeak() {
    for (String none : new String[] {null, ""}) {
      TensorOutOfMemoryException e = DeviceMemory.outOfMemory("CPU", none, 5L << 30, 0, STATS);
      assertEquals("CPU out of memory: tried to allocate 5.00 GiB; 3.00 MiB allocated, 4.00 MiB reserved by jtensor; "
          + "the system refused the memory", e.getMessage());
      assertEquals(5L << 30, e.requestedBytes());
    }
    TensorOutOfMemoryException limited = DeviceMemory.outOfMemory("CPU", "", 1024, 2L << 20, STATS);
    assertEquals("CPU out of memory: tried to allocate 1.00 KiB; 3.00 MiB allocated, 4.00 MiB reserved by jtensor of its "
        + "limit of 2.00 MiB (set by Memory.setMemoryLimit or JT_ALLOC_CONF=memory_limit_mb)", limited.getMessage());
  }
}
