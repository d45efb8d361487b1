package org.jtensor.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.Device;
import org.jtensor.memory.TensorOutOfMemoryException;
import org.jtensor.bindings.JtNative;

/**
 * One device's caching allocator, as native code exposes it (jt_device_type codes): the device's
 * Backend owns one, storages are allocated from it and {@link Memory} asks it for statistics.
 * Device-neutral: the CPU and a CUDA backend differ only in the code they pass. META's has no
 * bytes and nothing to report.
 */
public final class DeviceMemory {
  public static final DeviceMemory META = new DeviceMemory(Device.META, -1);

  private static volatile String[] statNames;

  private final Device device;
  private final int code;  // jt_device_type, -1 for META

  private DeviceMemory(Device device, int code) {
    this.device = device;
    this.code = code;
  }

  /** The allocator of a device with native memory; fails if the native library knows it by another code. */
  public static DeviceMemory of(Device device) {
    if (device.isMeta()) return META;
    DeviceMemory m = new DeviceMemory(device, NativeMemory.deviceCode(device.type()));
    String confError = JtNative.jt_alloc_conf_error(m.code);
    if (confError != null && !confError.isEmpty()) throw new IllegalArgumentException(confError);
    return m;
  }

  public Device device() {
    return device;
  }

  /**
   * A storage of nbytes from this allocator.
   *
   * @param what describes the owner in leak reports through its toString(), which runs only
   *     when a leak is reported (so allocation never formats strings)
   * @throws TensorOutOfMemoryException when the allocator cannot serve it even after a retry
   */
  public StorageImpl allocate(long nbytes, Object what) {
    if (nbytes < 0) throw new IllegalArgumentException("storage size must be >= 0, got " + nbytes);
    if (code < 0) return new StorageImpl(this, 0, nbytes, what);
    long h = NativeMemory.allocate(code, nbytes);
    if (h == 0) throw outOfMemory(nbytes);
    return new StorageImpl(this, h, nbytes, what);
  }

  /**
   * A CPU storage over nbytes at address that other code owns: never freed by jtensor; onFree
   * (the owner's release) runs exactly once, after the last reference goes or the leak detector
   * frees it. Counted under the wrapped_bytes statistics, not the caching allocator's.
   */
  public StorageImpl wrap(long address, long nbytes, boolean readOnly, Runnable onFree, Object what) {
    if (!device.isCpu()) throw new UnsupportedOperationException("wrap(): only CPU memory can be wrapped, not " + device);
    if (onFree == null) throw new IllegalArgumentException("wrap(): release must not be null (use () -> {} for none)");
    if (nbytes < 0) throw new IllegalArgumentException("wrap(): nbytes must be >= 0, got " + nbytes);
    if (address == 0 && nbytes > 0) throw new IllegalArgumentException("wrap(): address 0 with " + nbytes + " bytes");
    return new StorageImpl(this, JtNative.jt_storage_wrap(address, nbytes), nbytes, what, readOnly, onFree);
  }

  /** The wrapped storages' statistics, after the allocator's (CPU only). */
  private static final String[] WRAPPED = {"wrapped_bytes.current", "wrapped_bytes.peak", "wrapped_bytes.allocated",
                                            "wrapped_bytes.freed"};

  /** Every statistic, sorted by name (PyTorch's memory_stats keys, then wrapped_bytes on CPU); empty for META. */
  public Map<String, Long> stats() {
    if (code < 0) return Collections.emptyMap();
    String[] names = names();
    long[] values = new long[names.length];
    JtNative.jt_memory_stats(code, values);
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) m.put(names[i], values[i]);
    if (device.isCpu()) {
      long[] w = new long[WRAPPED.length];
      JtNative.jt_wrapped_stats(w);
      for (int i = 0; i < w.length; i++) m.put(WRAPPED[i], w[i]);
    }
    return m;
  }

  public void resetPeakStats() {
    if (code >= 0) JtNative.jt_reset_peak_stats(code);
    if (device.isCpu()) JtNative.jt_wrapped_reset_peak();
  }

  public void resetAccumulatedStats() {
    if (code >= 0) JtNative.jt_reset_accumulated_stats(code);
    if (device.isCpu()) JtNative.jt_wrapped_reset_accumulated();
  }

  public void emptyCache() {
    if (code >= 0) JtNative.jt_empty_cache(code);
  }

  public void setMemoryLimit(long bytes) {
    if (code >= 0) JtNative.jt_set_memory_limit(code, bytes);
  }

  /** 0 when no limit is set. */
  public long memoryLimit() {
    return code < 0 ? 0 : JtNative.jt_memory_limit(code);
  }

  /** The exception for a request of nbytes this allocator refused, with its stats and limit. */
  public TensorOutOfMemoryException outOfMemory(long nbytes) {
    return new TensorOutOfMemoryException(deviceName(), nbytes, memoryLimit(), stats());
  }

  /** The exception for a kernel of op whose scratch memory was refused. */
  public TensorOutOfMemoryException outOfMemory(String op) {
    return new TensorOutOfMemoryException(deviceName(), op, memoryLimit(), stats());
  }

  private String deviceName() {
    return device.toString().toUpperCase(java.util.Locale.ROOT);
  }

  /**
   * Every segment and block, by address (torch.cuda.memory_snapshot), in jt_snapshot's words:
   * [segments, then per segment: address, total, allocated, active, small?1:0, blocks, then per
   * block: address, size, requested, active?1:0]. memory.Memory turns them into records.
   */
  public long[] snapshotWords() {
    if (code < 0) return new long[] {0};
    long[] buf = new long[256];
    long need;
    while ((need = JtNative.jt_snapshot(code, buf, buf.length)) > buf.length) {
      buf = new long[(int) Math.min(Integer.MAX_VALUE - 8, need + 1024)];  // it may grow meanwhile
    }
    return buf;
  }

  private static String[] names() {
    String[] n = statNames;
    if (n == null) {
      n = new String[JtNative.jt_stat_count()];
      for (int i = 0; i < n.length; i++) n[i] = JtNative.jt_stat_name(i);
      statNames = n;
    }
    return n;
  }
}
