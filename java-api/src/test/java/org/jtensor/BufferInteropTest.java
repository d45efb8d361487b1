package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.bytedeco.javacpp.BytePointer;
import org.jtensor.memory.LeakDetector;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/** Zero-copy buffers: Tensor.fromBuffer, Storage.wrap, asByteBuffer, and read-only storages. */
class BufferInteropTest {
  static long wrappedBytes() {
    return Memory.memoryStats(Device.CPU).get("wrapped_bytes.current");
  }

  private static ByteBuffer floats(float... v) {
    ByteBuffer b = ByteBuffer.allocateDirect(4 * v.length).order(ByteOrder.nativeOrder());
    b.asFloatBuffer().put(v);
    return b;
  }

  @Test
  void fromBufferSharesTheBytesBothWays() {
    ByteBuffer b = floats(1, 2, 3, 4, 5, 6);
    long wrappedBefore = wrappedBytes(), allocatedBefore = Memory.memoryAllocated(Device.CPU);
    try (Tensor t = Tensor.fromBuffer(b, DType.FLOAT32, 2, 3)) {
      assertEquals(24, wrappedBytes() - wrappedBefore, "the buffer's bytes show as wrapped");
      assertEquals(allocatedBefore, Memory.memoryAllocated(Device.CPU), "and not as the caching allocator's");
      assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, t.toFloatArray());
      t.setDouble(9, 1, 2);
      assertEquals(9f, b.getFloat(20), "a write through the tensor is in the buffer");
      b.putFloat(0, -1f);
      assertEquals(-1.0, t.getDouble(0, 0), "a write through the buffer is in the tensor");
      assertEquals(new org.bytedeco.javacpp.Pointer(b).address(), t.dataPtr(), "no copy: the tensor's data is the buffer's");
    }
    assertEquals(wrappedBefore, wrappedBytes(), "the last close gives the wrapped bytes back");
  }

  @Test
  void aViewKeepsTheBufferAliveAfterItsBaseCloses() {
    Tensor view;
    try (Tensor t = Tensor.fromBuffer(floats(1, 2, 3, 4), DType.FLOAT32, 4)) {
      view = t.narrow(0, 2, 2);
    }
    System.gc();  // the buffer is reachable only through the storage's release now
    try (view) {
      assertArrayEquals(new float[] {3, 4}, view.toFloatArray());
    }
  }

  @Test
  void fromBufferStartsAtThePositionAndChecksSizeAndAlignment() {
    ByteBuffer b = floats(1, 2, 3, 4);
    b.position(8);
    try (Tensor t = Tensor.fromBuffer(b, DType.FLOAT32, 2)) {
      assertArrayEquals(new float[] {3, 4}, t.toFloatArray());
    }
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, 3));
    assertTrue(big.getMessage().startsWith("fromBuffer(): shape [3] of float32 needs 12 bytes"), big.getMessage());
    b.position(2);
    IllegalArgumentException odd = assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, 1));
    assertTrue(odd.getMessage().contains("not aligned to float32's 4 bytes"), odd.getMessage());
    IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromBuffer(ByteBuffer.allocate(8), DType.FLOAT32, 2));
    assertTrue(heap.getMessage().startsWith("fromBuffer(): the buffer must be direct"), heap.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(null, DType.FLOAT32, 2));
    try (Tensor empty = Tensor.fromBuffer(ByteBuffer.allocateDirect(0), DType.INT64, 0, 3)) {
      assertArrayEquals(new long[] {0, 3}, empty.shape());
    }
  }

  @Test
  void aReadOnlyBufferMakesAReadOnlyTensorThatRefusesEveryWrite() {
    ByteBuffer b = floats(1, 2, 3, 4).asReadOnlyBuffer();
    try (Tensor t = Tensor.fromBuffer(b, DType.FLOAT32, 2, 2); Storage s = t.untypedStorage();
         Tensor other = Tensor.ones(2, 2); Tensor idx = Tensor.fromArray(new long[] {0}); Tensor row = other.narrow(0, 0, 1)) {
      assertTrue(s.isReadOnly());
      try (Tensor sum = t.sum(); Tensor c = t.clone()) {
        assertEquals(10.0, sum.item());
        c.fill_(0.0);  // a clone is ordinary memory
        assertArrayEquals(new float[4], c.toFloatArray());
      }
      expectReadOnly("add_", () -> t.add_(other));
      expectReadOnly("fill_", () -> t.fill_(0.0));
      expectReadOnly("copy_", () -> t.copy_(other));
      expectReadOnly("setDouble", () -> t.setDouble(1, 0, 0));
      expectReadOnly("zero_", () -> t.zero_());
      expectReadOnly("indexAdd_", () -> t.indexAdd_(0, idx, row));
      expectReadOnly("addOut", () -> other.addOut(other, t));
      expectReadOnly("copy_", () -> { try (Storage w = Storage.allocate(16, Device.CPU)) { s.copy_(w); } });
      assertThrows(UnsupportedOperationException.class, () -> s.resize_(32));
      assertArrayEquals(new float[] {1, 2, 3, 4}, t.toFloatArray(), "nothing was written");
    }
  }

  private static void expectReadOnly(String op, Runnable write) {
    IllegalStateException e = assertThrows(IllegalStateException.class, write::run);
    assertTrue(e.getMessage().startsWith(op + "(): ") && e.getMessage().contains("read-only"), e.getMessage());
  }

  @Test
  void storageWrapRunsTheReleaseOnceAfterTheLastView() {
    BytePointer memory = new BytePointer(64);  // memory another native library owns
    AtomicInteger released = new AtomicInteger();
    long before = wrappedBytes();
    Storage s = Storage.wrap(memory.address(), 64, () -> {
      released.incrementAndGet();
      memory.deallocate();
    });
    assertFalse(s.isReadOnly());
    Tensor t = Tensor.empty(new long[] {0}, DType.INT32).set_(s, 4, new long[] {2, 3}, new long[] {3, 1});
    s.close();
    Tensor row = t.select(0, 1);
    t.fill_(7L);
    t.close();
    assertEquals(0, released.get(), "a view still uses the bytes");
    assertArrayEquals(new int[] {7, 7, 7}, row.toIntArray());
    assertEquals(64, wrappedBytes() - before);
    row.close();
    assertEquals(1, released.get(), "the last close released the memory");
    row.close();
    assertEquals(1, released.get(), "exactly once");
    assertEquals(before, wrappedBytes());
    assertThrows(IllegalArgumentException.class, () -> Storage.wrap(0, 8, () -> {}));
    assertThrows(IllegalArgumentException.class, () -> Storage.wrap(memory.address(), -1, () -> {}));
    assertThrows(IllegalArgumentException.class, () -> Storage.wrap(memory.address(), 8, null));
  }

  @Test
  @ExpectsLeakReports
  void aLeakedWrappedStorageIsReleasedByTheLeakDetector() throws InterruptedException {
    AtomicInteger released = new AtomicInteger();
    long leaks = LeakDetector.leaksReported();
    leakOne(released);
    for (int i = 0; i < 200 && released.get() == 0; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(1, released.get(), "the detector ran the owner's release");
    assertTrue(LeakDetector.leaksReported() > leaks, "and reported the leak");
  }

  private static void leakOne(AtomicInteger released) {
    BytePointer memory = new BytePointer(32);
    Storage.wrap(memory.address(), 32, () -> {
      released.incrementAndGet();
      memory.deallocate();
    });
  }

  @Test
  void asByteBufferSharesBytesAndHoldsTheStorageUntilCollected() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU) + wrappedBytes();
    useAndDropAByteBuffer();
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) + wrappedBytes() != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU) + wrappedBytes(), "collected buffers give their storages back");
  }

  // A method of its own, so no local of the caller's frame keeps a buffer reachable.
  private static void useAndDropAByteBuffer() {
    ByteBuffer view;
    try (Tensor t = Tensor.fromArray(new float[] {0, 1, 2, 3, 4, 5})) {
      view = t.asByteBuffer();
      assertEquals(ByteOrder.LITTLE_ENDIAN, view.order());
      FloatBuffer f = view.asFloatBuffer();
      assertEquals(5f, f.get(5));
      f.put(0, 42f);
      assertEquals(42.0, t.getDouble(0));
      try (Tensor v = t.view(2, 3); Tensor tt = v.t()) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, tt::asByteBuffer);
        assertTrue(e.getMessage().startsWith("asByteBuffer(): the tensor must be contiguous"), e.getMessage());
      }
      try (Tensor part = t.narrow(0, 2, 3)) {
        assertEquals(2f, part.asByteBuffer().getFloat(0), "a view's buffer starts at its offset");
      }
    }
    assertEquals(42f, view.getFloat(0), "the buffer still owns a reference after the tensor closed");
    try (Tensor ro = Tensor.fromBuffer(floats(1, 2).asReadOnlyBuffer(), DType.FLOAT32, 2)) {
      assertTrue(ro.asByteBuffer().isReadOnly(), "a read-only storage's byte view is read-only too");
    }
  }

}
