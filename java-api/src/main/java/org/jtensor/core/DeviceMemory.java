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
  public static final DeviceMemory META = new DeviceMemory(Device.META, -1, null);

  private static volatile String[] statNames;

  private final Device device;
  private final int code;  // jt_device_type, -1 for META
  private final PinnedSource pinned;  // page-locked CPU memory from CUDA's pinned allocator; null otherwise

  /** Where pinned host storages come from: the CUDA library's pinned host caching allocator. */
  public interface PinnedSource {
    /** A native CPU storage of page-locked memory, 0 when the host refuses. */
    long newStorage(long nbytes);

    /** Its statistics, jt_stat_count() values in name order. */
    void stats(long[] out);
  }

  private DeviceMemory(Device device, int code, PinnedSource pinned) {
    this.device = device;
    this.code = code;
    this.pinned = pinned;
  }

  /** CPU storages of page-locked memory (pin_memory), which asynchronous copies to a GPU read. */
  public static DeviceMemory pinnedHost(PinnedSource source) {
    return new DeviceMemory(Device.CPU, NativeMemory.deviceCode(Device.Type.CPU), source);
  }

  /** Whether this is pinned host memory rather than the device's own allocator. */
  public boolean isPinned() {
    return pinned != null;
  }

  /** The allocator of a device with native memory; fails if the native library knows it by another code. */
  public static DeviceMemory of(Device device) {
    if (device.isMeta()) return META;
    DeviceMemory m = new DeviceMemory(device, NativeMemory.deviceCode(device.type()), null);
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
    if (failCountdown > 0 && injectedFailure()) throw outOfMemory(nbytes);
    long released = BufferExports.releases();  // before the attempt: a buffer's storage freed after it is worth a retry
    long h = pinned != null ? pinned.newStorage(nbytes) : NativeMemory.allocate(code, nbytes);
    if (h == 0 && pinned == null) h = allocateAfterCollecting(nbytes, released);
    if (h == 0) throw outOfMemory(nbytes);
    return new StorageImpl(this, h, nbytes, what);
  }

  // Note [Failure injection] Tests of failure paths (FailureInjectionTest) make the n-th allocation
  // from now fail as if memory were out, for every n in turn. A plain volatile read when off.
  private static volatile int failCountdown;
  private static final Object INJECTION = new Object();

  /** Test hook (org.jtensor.core is not exported): the n-th allocation with bytes from now on fails; 0 turns it off. */
  public static void failNthAllocation(int n) {
    synchronized (INJECTION) {
      failCountdown = Math.max(0, n);
    }
  }

  /** Whether an injected failure is still armed (the n-th allocation has not come yet). */
  public static boolean failureArmed() {
    return failCountdown > 0;
  }

  private static boolean injectedFailure() {
    synchronized (INJECTION) {
      return failCountdown > 0 && --failCountdown == 0;
    }
  }

  /**
   * Memory is out, but storages that only garbage holds may be waiting for the collector: tensors
   * never closed (the leak detector frees them once collected, Note [Collecting for unscoped code]
   * in LeakCollector) and storages only garbage ByteBuffers (asByteBuffer) still hold. So collect,
   * free what was found and retry; the buffers' storages come back on their own thread, so retry
   * once none the collection found is still on the way (Note [Waiting for garbage buffers] in
   * BufferExports). 0 when memory is still out. No retry when nothing was freed and
   * nothing is on the way: the allocator counts each refusal in num_ooms, and one refused tensor
   * counted two.
   */
  private long allocateAfterCollecting(long nbytes, long released) {
    boolean collected = LeakCollector.collectForRetry();
    if (!device.isCpu()) return collected ? NativeMemory.allocate(code, nbytes) : 0;
    if (LeakTracker.level() == org.jtensor.memory.LeakLevel.DISABLED && BufferExports.any()) System.gc();  // else collectForRetry has just collected
    boolean buffersFreed = BufferExports.awaitReleasesAfter(released);  // every release the collection found on the way
    return collected || buffersFreed ? NativeMemory.allocate(code, nbytes) : 0;  // nothing freed since the refusal: no retry
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
    if (address < 0 || nbytes > Long.MAX_VALUE - address) {  // no user-space address is negative on a 64-bit host
      throw new IllegalArgumentException("wrap(): bytes [" + Long.toUnsignedString(address) + ", + " + nbytes
          + ") are not user-space memory");
    }
    long handle = JtNative.jt_storage_wrap(address, nbytes);
    if (handle == 0) {  // the native heap refused the bookkeeping: nothing is tracked, the bytes stay the caller's
      throw new TensorOutOfMemoryException("wrap(): the system refused the memory to track " + nbytes
          + " wrapped bytes; release was not run and the bytes stay the caller's", 0, stats());
    }
    return new StorageImpl(this, handle, nbytes, what, readOnly, onFree);
  }

  /** The wrapped storages' statistics, after the allocator's (CPU only). */
  private static final String[] WRAPPED = {"wrapped_bytes.current", "wrapped_bytes.peak", "wrapped_bytes.allocated",
                                            "wrapped_bytes.freed"};

  /** Every statistic, sorted by name (PyTorch's memory_stats keys, then wrapped_bytes on CPU); empty for META. */
  public Map<String, Long> stats() {
    if (code < 0) return Collections.emptyMap();
    String[] names = names();
    long[] values = new long[names.length];
    if (pinned != null) pinned.stats(values);
    else JtNative.jt_memory_stats(code, values);
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) m.put(names[i], values[i]);
    if (device.isCpu() && pinned == null) {
      long[] w = new long[WRAPPED.length];
      JtNative.jt_wrapped_stats(w);
      for (int i = 0; i < w.length; i++) m.put(WRAPPED[i], w[i]);
    }
    return m;
  }

  // The calls below act on a device's own allocator (Memory's per-device functions); pinned host
  // memory has none of its own to reset, empty, limit or list, so they leave it alone.

  public void resetPeakStats() {
    if (pinned != null) return;
    if (code >= 0) JtNative.jt_reset_peak_stats(code);
    if (device.isCpu()) JtNative.jt_wrapped_reset_peak();
  }

  public void resetAccumulatedStats() {
    if (pinned != null) return;
    if (code >= 0) JtNative.jt_reset_accumulated_stats(code);
    if (device.isCpu()) JtNative.jt_wrapped_reset_accumulated();
  }

  public void emptyCache() {
    if (code >= 0 && pinned == null) JtNative.jt_empty_cache(code);
  }

  public void setMemoryLimit(long bytes) {
    if (code >= 0 && pinned == null) JtNative.jt_set_memory_limit(code, bytes);
  }

  /** 0 when no limit is set. */
  public long memoryLimit() {
    return code < 0 || pinned != null ? 0 : JtNative.jt_memory_limit(code);
  }

  /**
   * The exception for a request of nbytes this allocator refused, with its stats and limit. Called
   * on the thread whose allocation failed: CUDA's allocator left its report (PyTorch's words) there.
   */
  public TensorOutOfMemoryException outOfMemory(long nbytes) {
    String report = device.type() == Device.Type.CUDA && pinned == null ? JtNative.jt_oom_message(code) : null;
    return outOfMemory(deviceName(), report, nbytes, memoryLimit(), stats());
  }

  /** The allocator's own report when it gave one (CUDA's), else jtensor's message from the stats. */
  static TensorOutOfMemoryException outOfMemory(String device, String report, long nbytes, long limit, Map<String, Long> stats) {
    if (report != null && !report.isEmpty()) return new TensorOutOfMemoryException(report, nbytes, stats);
    return new TensorOutOfMemoryException(device, nbytes, limit, stats);
  }

  /** The exception for a kernel of op whose scratch memory was refused. */
  public TensorOutOfMemoryException outOfMemory(String op) {
    return new TensorOutOfMemoryException(deviceName(), op, memoryLimit(), stats());
  }

  private String deviceName() {
    return (pinned != null ? "pinned " : "") + device.toString().toUpperCase(java.util.Locale.ROOT);
  }

  /**
   * Every segment and block, by address (torch.cuda.memory_snapshot), in jt_snapshot's words:
   * [segments, then per segment: address, total, allocated, active, small?1:0, blocks, then per
   * block: address, size, requested, active?1:0]. memory.Memory turns them into records.
   */
  public long[] snapshotWords() {
    if (code < 0 || pinned != null) return new long[] {0};
    long[] buf = new long[256];
    long need;
    while ((need = JtNative.jt_snapshot(code, buf, buf.length)) > buf.length) {
      buf = new long[(int) Math.min(Integer.MAX_VALUE - 8, need + 1024)];  // it may grow meanwhile
    }
    if (need < 0) {
      throw new TensorOutOfMemoryException("memorySnapshot(): the system refused the memory to list the " + deviceName()
          + " allocator's segments", 0, stats());
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
