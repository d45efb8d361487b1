package org.jtensor.memory;

import java.util.Map;

/** The caching allocator could not serve a request even after it freed its cache and retried. */
public final class TensorOutOfMemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Map<String, Long> stats;
  private final long requestedBytes;

  public TensorOutOfMemoryException(String device, long requestedBytes, Map<String, Long> stats) {
    super(String.format("%s out of memory: tried to allocate %s; %s allocated, %s reserved by jtensor "
            + "(limit set by Memory.setMemoryLimit or JT_ALLOC_CONF=memory_limit_mb)",
        device, Memory.formatBytes(requestedBytes), Memory.formatBytes(stats.getOrDefault("allocated_bytes.all.current", 0L)),
        Memory.formatBytes(stats.getOrDefault("reserved_bytes.all.current", 0L))));
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
