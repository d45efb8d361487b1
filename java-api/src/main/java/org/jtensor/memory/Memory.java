package org.jtensor.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.core.DeviceMemory;
import org.jtensor.dispatch.Dispatcher;

/**
 * The caching allocators' controls and statistics, named as torch.cuda's memory API:
 * {@code memoryStats} uses PyTorch's {@code memory_stats} keys ("allocated_bytes.all.current",
 * "reserved_bytes.large_pool.peak", "num_alloc_retries", ...).
 */
public final class Memory {
  private Memory() {}

  /** One segment the allocator reserved from the system, with the blocks carved from it. */
  public record Segment(long address, long totalSize, long allocatedSize, long activeSize, String segmentType,
                        List<Block> blocks) {}

  /** A block within a segment; state is "active_allocated" or "inactive". */
  public record Block(long address, long size, long requestedSize, String state) {}

  /** Every statistic of the device's allocator, sorted by name; empty for META. */
  public static Map<String, Long> memoryStats(Device device) {
    return of(device, "memoryStats").stats();
  }

  /** Bytes currently handed out to tensors (allocated_bytes.all.current). */
  public static long memoryAllocated(Device device) {
    return memoryStats(device).getOrDefault("allocated_bytes.all.current", 0L);
  }

  public static long maxMemoryAllocated(Device device) {
    return memoryStats(device).getOrDefault("allocated_bytes.all.peak", 0L);
  }

  /** Bytes reserved from the system, cached blocks included (reserved_bytes.all.current). */
  public static long memoryReserved(Device device) {
    return memoryStats(device).getOrDefault("reserved_bytes.all.current", 0L);
  }

  /** Resets every ".peak" statistic to its current value. */
  public static void resetPeakMemoryStats(Device device) {
    of(device, "resetPeakMemoryStats").resetPeakStats();
  }

  /** Resets the ".allocated"/".freed" totals and the retry and OOM counters. */
  public static void resetAccumulatedMemoryStats(Device device) {
    of(device, "resetAccumulatedMemoryStats").resetAccumulatedStats();
  }

  /** Gives every fully free cached segment back to the system. */
  public static void emptyCache(Device device) {
    of(device, "emptyCache").emptyCache();
  }

  /** Caps what the allocator may reserve (0 removes the cap); past it, allocation frees the cache, retries, then throws. */
  public static void setMemoryLimit(Device device, long bytes) {
    if (bytes < 0) throw new IllegalArgumentException("setMemoryLimit(): bytes must be >= 0, got " + bytes);
    DeviceMemory m = of(device, "setMemoryLimit");
    if (device.isMeta()) throw new UnsupportedOperationException("setMemoryLimit(): meta tensors have no allocator to limit");
    m.setMemoryLimit(bytes);
  }

  /** The cap set by setMemoryLimit or JT_ALLOC_CONF's memory_limit_mb; 0 when none is set. */
  public static long memoryLimit(Device device) {
    return of(device, "memoryLimit").memoryLimit();
  }

  /** Every segment and block the allocator holds, by address (torch.cuda.memory_snapshot). */
  public static List<Segment> memorySnapshot(Device device) {
    long[] w = of(device, "memorySnapshot").snapshotWords();
    List<Segment> segments = new ArrayList<>();
    int p = 1;
    for (long s = 0; s < w[0]; s++) {
      String type = w[p + 4] == 1 ? "small" : "large";
      int nblocks = (int) w[p + 5];
      List<Block> blocks = new ArrayList<>(nblocks);
      for (int b = 0, q = p + 6; b < nblocks; b++, q += 4) {
        blocks.add(new Block(w[q], w[q + 1], w[q + 2], w[q + 3] == 1 ? "active_allocated" : "inactive"));
      }
      segments.add(new Segment(w[p], w[p + 1], w[p + 2], w[p + 3], type, List.copyOf(blocks)));
      p += 6 + 4 * nblocks;
    }
    return List.copyOf(segments);
  }

  /** The device's allocator, as its backend holds it: the Dispatcher is the one place that chooses by device. */
  private static DeviceMemory of(Device device, String op) {
    try {
      return Dispatcher.backend(device).memory();
    } catch (UnsupportedOperationException e) {
      throw new UnsupportedOperationException(op + "(): no " + device + " allocator in this build", e);
    }
  }
}
