package org.jtensor.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.ScopedTest;
import org.jtensor.Storage;
import org.jtensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * A hostile review of the CPU caching allocator and storage lifetimes (session 33, docs/reliability.md):
 * sizes at every rounding and pool threshold, refusals counted once, sizes whose bytes overflow,
 * and the snapshot against the statistics.
 */
class AllocatorHostileTest extends ScopedTest {
  private static final long KiB = 1024, MiB = 1024 * KiB;

  private static long stat(String key) {
    return Memory.memoryStats(Device.CPU).get(key);
  }

  /** Bytes a request of n bytes takes (CachingAllocator::round_size). */
  private static long rounded(long n) {
    return Math.max(512, (n + 511) / 512 * 512);
  }

  @Test
  void sizesAtEveryThresholdAreCountedAndGiveEverythingBack() {
    long[] sizes = {1, 511, 512, 513, 32 * KiB - 1, 32 * KiB, 32 * KiB + 1, MiB - 1, MiB, MiB + 1,
                    10 * MiB - 1, 10 * MiB, 10 * MiB + 1, 20 * MiB + 1};
    for (long n : sizes) {
      long allocated = stat("allocated_bytes.all.current"), requested = stat("requested_bytes.all.current");
      try (Tensor t = Tensor.full(new long[] {n}, 1, DType.INT8)) {
        assertEquals(allocated + rounded(n), stat("allocated_bytes.all.current"), n + " bytes");
        assertEquals(requested + n, stat("requested_bytes.all.current"), n + " bytes");
        try (Tensor sum = t.sum()) {  // every byte is the tensor's own: none written by another owner
          assertEquals(n, sum.itemLong(), n + " bytes");
        }
      }
      assertEquals(allocated, stat("allocated_bytes.all.current"), n + " bytes");
      assertEquals(requested, stat("requested_bytes.all.current"), n + " bytes");
    }
    try (Storage empty = Storage.allocate(0, Device.CPU)) {  // no block at all
      assertEquals(0, empty.nbytes());
      assertEquals(0, empty.dataPtr());
    }
  }

  @Test
  void aRefusedTensorCountsOneOutOfMemory() {
    // PyTorch's num_ooms counts the out-of-memory errors thrown; a refused tensor counted two (the
    // allocator's refusal, then again on the retry after a garbage collection that freed nothing).
    for (long n : new long[] {1L << 50, 1L << 62, Long.MAX_VALUE}) {
      long ooms = stat("num_ooms"), allocated = stat("allocated_bytes.all.current");
      assertThrows(TensorOutOfMemoryException.class, () -> Tensor.empty(new long[] {n}, DType.INT8));
      assertEquals(ooms + 1, stat("num_ooms"), n + " bytes");
      assertEquals(allocated, stat("allocated_bytes.all.current"), "nothing kept from the refusal");
    }
    long limitBefore = Memory.memoryLimit(Device.CPU);
    Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU) + 16 * MiB);
    try {
      long ooms = stat("num_ooms");
      assertThrows(TensorOutOfMemoryException.class, () -> Tensor.empty(new long[] {32 * MiB}, DType.INT8));
      assertEquals(ooms + 1, stat("num_ooms"), "past the memory limit");
      // what fits is still served (12 MiB: a request under 10 MiB takes a 20 MiB segment, as PyTorch's)
      try (Tensor fits = Tensor.empty(new long[] {12 * MiB}, DType.INT8)) {
        assertEquals(12 * MiB, fits.nbytes());
      }
    } finally {
      Memory.setMemoryLimit(Device.CPU, limitBefore);
    }
  }

  @Test
  void anOutputWhoseBytesOverflowIsRefusedNamingTheOp() {
    // int8 sizes of 3 × (2^61 + 1) elements hold no float32 result: numel × 4 passed 2^63 and the
    // storage was refused as "storage size must be >= 0, got -9223372036854775796", naming no op.
    // PyTorch: "Storage size calculation overflowed with sizes=[3, 2305843009213693953] ...".
    Tensor big = Tensor.zeros(new long[] {1}, DType.INT8).expand(3, (1L << 61) + 1);
    for (String op : List.of("mul", "add")) {
      long allocated = stat("allocated_bytes.all.current");
      var e = assertThrows(IllegalArgumentException.class, () -> {
        if (op.equals("mul")) big.mul(2.5);
        else big.add(1.5);
      });
      assertTrue(e.getMessage().startsWith(op + "(): "), e.getMessage());
      assertTrue(e.getMessage().contains("overflow"), e.getMessage());
      assertEquals(allocated, stat("allocated_bytes.all.current"));
    }
  }

  @Test
  void theSnapshotAgreesWithTheStatistics() {
    Tensor[] held = {Tensor.empty(new long[] {100}, DType.FLOAT32), Tensor.empty(new long[] {8 * KiB}, DType.FLOAT64),
                     Tensor.empty(new long[] {MiB}, DType.INT8), Tensor.empty(new long[] {3 * MiB}, DType.FLOAT32)};
    Tensor freed = Tensor.empty(new long[] {5000}, DType.INT8);  // a split block, freed (parked or cached)
    freed.close();
    Map<String, Long> s = Memory.memoryStats(Device.CPU);
    List<Memory.Segment> snapshot = Memory.memorySnapshot(Device.CPU);
    long total = 0, allocated = 0, requested = 0, blocks = 0;
    for (Memory.Segment seg : snapshot) {
      long sum = 0, alloc = 0;
      for (Memory.Block b : seg.blocks()) {
        sum += b.size();
        if (b.state().equals("active_allocated")) {
          alloc += b.size();
          requested += b.requestedSize();
          blocks++;
        }
      }
      assertEquals(seg.totalSize(), sum, "a segment's blocks cover it");
      assertEquals(seg.allocatedSize(), alloc);
      total += seg.totalSize();
      allocated += alloc;
    }
    assertEquals(s.get("reserved_bytes.all.current"), total);
    assertEquals(s.get("segment.all.current"), (long) snapshot.size());
    assertEquals(s.get("allocated_bytes.all.current"), allocated);
    assertEquals(s.get("allocation.all.current"), blocks);
    assertEquals(s.get("requested_bytes.all.current"), requested);
    for (Tensor t : held) t.close();
  }

  @Test
  void aRealRefusalInBackwardLeavesNoGradAndNoBytes() {
    long allocated = stat("allocated_bytes.all.current"), limitBefore = Memory.memoryLimit(Device.CPU);
    try (Tensor x = Tensor.ones(new long[] {MiB}, DType.FLOAT32).requiresGrad_(); Tensor y = x.mul(x); Tensor s = y.sum()) {
      Memory.emptyCache(Device.CPU);
      Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU));  // no new segment: the 4 MiB grads are refused
      try {
        assertThrows(TensorOutOfMemoryException.class, s::backward);
        assertEquals(null, x.grad(), "no half-written grad");
      } finally {
        Memory.setMemoryLimit(Device.CPU, limitBefore);
      }
    }
    assertEquals(allocated, stat("allocated_bytes.all.current"), "the failed backward kept nothing");
  }

  @Test
  void aResizedStorageCountsItsNewBytesForTheLeakCollector() {
    // Note [Collecting for unscoped code]: the live bytes of tracked storages decide when to collect
    // for tensors never closed. resize_ left them at the storage's first size, so storages grown in
    // place and leaked never brought a collection on (16 bytes counted for 64 MiB).
    LeakDetector.collect();  // the heuristic starts afresh: the next collection comes 16 MiB above the live bytes
    long collections = LeakDetector.collections();
    try (Storage s = Storage.allocate(16, Device.CPU)) {
      s.resize_(64 * MiB);
      try (Tensor next = Tensor.empty(new long[] {16}, DType.INT8)) {  // the next allocation sees 64 MiB more
        assertEquals(collections + 1, LeakDetector.collections(), "a collection on growth");
      }
    }
  }

  @Test
  void resetsLeaveEveryPeakAtItsCurrentAndEveryTotalAtZero() {
    try (Tensor held = Tensor.empty(new long[] {300}, DType.FLOAT32)) {
      Tensor.empty(new long[] {5000}, DType.FLOAT32).close();  // parked in this thread's cache: free to the stats
      Tensor.empty(new long[] {3 * MiB}, DType.FLOAT32).close();  // a large block, cached
      Memory.resetPeakMemoryStats(Device.CPU);
      Memory.resetAccumulatedMemoryStats(Device.CPU);
      Map<String, Long> s = Memory.memoryStats(Device.CPU);
      for (Map.Entry<String, Long> e : s.entrySet()) {
        String k = e.getKey();
        if (k.endsWith(".peak")) assertEquals(s.get(k.replace(".peak", ".current")), e.getValue(), k);
        if (k.endsWith(".allocated") || k.endsWith(".freed") || k.startsWith("num_")) assertEquals(0L, e.getValue(), k);
      }
      assertTrue(s.get("allocated_bytes.all.current") >= 1536, "the held tensor");
    }
  }
}
