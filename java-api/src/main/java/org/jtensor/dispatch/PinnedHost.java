package org.jtensor.dispatch;

import java.util.Map;
import org.jtensor.bindings.JtCuda;
import org.jtensor.core.DeviceMemory;
import org.jtensor.core.StorageImpl;

/**
 * pin_memory's storages: page-locked CPU memory from libjtensor_cuda's pinned host caching
 * allocator (PyTorch's CachingHostAllocator), which a GPU reads while the host goes on. Made the
 * first time CUDA is found available and asked for one.
 */
public final class PinnedHost {
  private PinnedHost() {}

  private static final class Holder {
    static final DeviceMemory MEMORY = DeviceMemory.pinnedHost(new DeviceMemory.PinnedSource() {
      @Override
      public long newStorage(long nbytes) {
        return JtCuda.jtc_pinned_storage_new(nbytes);
      }

      @Override
      public void stats(long[] out) {
        JtCuda.jtc_pinned_stats(out);
      }
    });
  }

  /** A pinned CPU storage of nbytes; without CUDA, UnsupportedOperationException naming op and why. */
  public static StorageImpl allocate(String op, long nbytes, Object what) {
    CudaProbe.get().require(op);
    return Holder.MEMORY.allocate(nbytes, what);
  }

  /** The pinned allocator's statistics under the caching allocators' key names. */
  public static Map<String, Long> stats(String op) {
    CudaProbe.get().require(op);
    return Holder.MEMORY.stats();
  }

  /** Frees the cached page-locked blocks no storage holds (those still awaiting a copy stay). */
  public static void emptyCache(String op) {
    CudaProbe.get().require(op);
    JtCuda.jtc_pinned_empty_cache();
  }
}
