package org.jtensor.memory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.bindings.JtNative;

/**
 * The caching allocators' controls and statistics, named as torch.cuda's memory API:
 * {@code memoryStats} uses PyTorch's {@code memory_stats} keys ("allocated_bytes.all.current",
 * "reserved_bytes.large_pool.peak", "num_alloc_retries", ...).
 */
public final class Memory {
  private static volatile String[] statNames;

  private Memory() {}

  /** One segment the allocator reserved from the system, with the blocks carved from it. */
  public record Segment(long address, long totalSize, long allocatedSize, long activeSize, String segmentType,
                        List<Block> blocks) {}

  /** A block within a segment; state is "active_allocated" or "inactive". */
  public record Block(long address, long size, long requestedSize, String state) {}

  /** Every statistic of the device's allocator, sorted by name; empty for META. */
  public static Map<String, Long> memoryStats(Device device) {
    if (device.isMeta()) return Collections.emptyMap();
    requireCpu(device, "memoryStats");
    String[] names = names();
    long[] values = new long[names.length];
    JtNative.jt_cpu_memory_stats(values);
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) m.put(names[i], values[i]);
    return m;
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
    if (device.isMeta()) return;
    requireCpu(device, "resetPeakMemoryStats");
    JtNative.jt_cpu_reset_peak_stats();
  }

  /** Resets the ".allocated"/".freed" totals and the retry and OOM counters. */
  public static void resetAccumulatedMemoryStats(Device device) {
    if (device.isMeta()) return;
    requireCpu(device, "resetAccumulatedMemoryStats");
    JtNative.jt_cpu_reset_accumulated_stats();
  }

  /** Gives every fully free cached segment back to the system. */
  public static void emptyCache(Device device) {
    if (device.isMeta()) return;
    requireCpu(device, "emptyCache");
    JtNative.jt_cpu_empty_cache();
  }

  /** Caps what the allocator may reserve (0 removes the cap); past it, allocation frees the cache, retries, then throws. */
  public static void setMemoryLimit(Device device, long bytes) {
    if (bytes < 0) throw new IllegalArgumentException("setMemoryLimit(): bytes must be >= 0, got " + bytes);
    requireCpu(device, "setMemoryLimit");
    JtNative.jt_cpu_set_memory_limit(bytes);
  }

  /** The cap set by setMemoryLimit or JT_ALLOC_CONF's memory_limit_mb; 0 when none is set. */
  public static long memoryLimit(Device device) {
    if (device.isMeta()) return 0;
    requireCpu(device, "memoryLimit");
    return JtNative.jt_cpu_memory_limit();
  }

  /** The exception for a request of nbytes the device's allocator refused, with its stats and limit. */
  public static TensorOutOfMemoryException outOfMemory(Device device, long nbytes) {
    return new TensorOutOfMemoryException(deviceName(device), nbytes, memoryLimit(device), memoryStats(device));
  }

  /** The exception for a kernel of op whose scratch memory was refused. */
  public static TensorOutOfMemoryException outOfMemory(Device device, String op) {
    return new TensorOutOfMemoryException(deviceName(device), op, memoryLimit(device), memoryStats(device));
  }

  private static String deviceName(Device device) {
    return device.toString().toUpperCase(java.util.Locale.ROOT);
  }

  /** Every segment and block the allocator holds, by address (torch.cuda.memory_snapshot). */
  public static List<Segment> memorySnapshot(Device device) {
    if (device.isMeta()) return List.of();
    requireCpu(device, "memorySnapshot");
    long[] buf = new long[256];
    long need;
    while ((need = JtNative.jt_cpu_snapshot(buf, buf.length)) > buf.length) {
      buf = new long[(int) Math.min(Integer.MAX_VALUE - 8, need + 1024)];  // it may grow meanwhile
    }
    List<Segment> segments = new ArrayList<>();
    int p = 1;
    for (long s = 0; s < buf[0]; s++) {
      long address = buf[p], total = buf[p + 1], allocated = buf[p + 2], active = buf[p + 3];
      String type = buf[p + 4] == 1 ? "small" : "large";
      int nblocks = (int) buf[p + 5];
      p += 6;
      List<Block> blocks = new ArrayList<>(nblocks);
      for (int b = 0; b < nblocks; b++, p += 4) {
        blocks.add(new Block(buf[p], buf[p + 1], buf[p + 2], buf[p + 3] == 1 ? "active_allocated" : "inactive"));
      }
      segments.add(new Segment(address, total, allocated, active, type, List.copyOf(blocks)));
    }
    return List.copyOf(segments);
  }

  static String formatBytes(long b) {
    if (b >= 1L << 30) return String.format("%.2f GiB", b / (double) (1L << 30));
    if (b >= 1L << 20) return String.format("%.2f MiB", b / (double) (1L << 20));
    if (b >= 1L << 10) return String.format("%.2f KiB", b / (double) (1L << 10));
    return b + " bytes";
  }

  private static String[] names() {
    String[] n = statNames;
    if (n == null) {
      n = new String[JtNative.jt_cpu_stat_count()];
      for (int i = 0; i < n.length; i++) n[i] = JtNative.jt_cpu_stat_name(i);
      statNames = n;
    }
    return n;
  }

  private static void requireCpu(Device device, String op) {
    if (!device.isCpu()) {
      throw new UnsupportedOperationException(op + "(): no " + device + " allocator in this build");
    }
  }
}
