package org.jtensor.memory;

import java.util.Map;
import org.jtensor.core.ByteCounts;

/** The caching allocator could not serve a request even after it freed its cache and retried. */
public final class TensorOutOfMemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Map<String, Long> stats;
  private final long requestedBytes;

  /** limitBytes: the allocator's memory limit, 0 when none is set. */
  public TensorOutOfMemoryException(String device, long requestedBytes, long limitBytes, Map<String, Long> stats) {
    this(device, "tried to allocate " + ByteCounts.format(requestedBytes), requestedBytes, limitBytes, stats);
  }

  /**
   * The allocator's own report, as CUDA's caching allocator words it after PyTorch ("CUDA out of
   * memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of ...").
   */
  public TensorOutOfMemoryException(String report, long requestedBytes, Map<String, Long> stats) {
    super(report);
    this.stats = stats;
    this.requestedBytes = requestedBytes;
  }

  /** A kernel's own scratch memory was refused (its size is the kernel's business). */
  public TensorOutOfMemoryException(String device, String op, long limitBytes, Map<String, Long> stats) {
    this(device, op + "() could not get its scratch memory", 0, limitBytes, stats);
  }

  private TensorOutOfMemoryException(String device, String what, long requestedBytes, long limitBytes,
                                     Map<String, Long> stats) {
    super(String.format("%s out of memory: %s; %s allocated, %s reserved by jtensor%s",
        device, what, ByteCounts.format(stats.getOrDefault("allocated_bytes.all.current", 0L)),
        ByteCounts.format(stats.getOrDefault("reserved_bytes.all.current", 0L)),
        limitBytes > 0 ? " of its limit of " + ByteCounts.format(limitBytes)
            + " (set by Memory.setMemoryLimit or JT_ALLOC_CONF=memory_limit_mb)"
                       : "; the system refused the memory"));
    this.stats = stats;
    this.requestedBytes = requestedBytes;
  }

  /** The allocator's memory stats at the moment of failure. */
  public Map<String, Long> stats() {
    return stats;
  }

  public long requestedBytes() {
    return requestedBytes;
  }
}
