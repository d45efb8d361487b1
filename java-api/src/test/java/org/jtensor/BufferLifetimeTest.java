package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * How long the bytes behind fromBuffer and asByteBuffer live: a view keeps its buffer through
 * hard collections, a byte buffer keeps its storage after the tensor closed and the cache was
 * emptied, resize_ cannot pull bytes from under a buffer, and a closed tensor lets its buffer go.
 */
class BufferLifetimeTest extends ScopedTest {
  private static ByteBuffer direct(int n) {
    return ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
  }

  @Test
  void aViewKeepsItsBufferAliveThroughHardCollections() throws InterruptedException {
    @SuppressWarnings("unchecked")
    java.lang.ref.WeakReference<ByteBuffer>[] buffer = new java.lang.ref.WeakReference[1];
    Tensor view = viewOfABufferNoOneElseHolds(buffer);
    for (int i = 0; i < 5; i++) {
      System.gc();
      byte[][] churn = new byte[64][];  // let the collector reuse what it can
      for (int k = 0; k < churn.length; k++) churn[k] = new byte[1 << 16];
      Thread.sleep(5);
    }
    // Values alone could pass over freed memory that still holds them: the buffer itself must be alive.
    assertTrue(buffer[0].get() != null, "the buffer was collected while a view of it lives");
    float[] v = view.toFloatArray();
    for (int i = 0; i < v.length; i++) assertEquals(1000 + 2 * i, v[i], 0f, "element " + i);
    view.close();
    for (int i = 0; i < 200 && buffer[0].get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(null, buffer[0].get(), "the last view closed, the buffer can go");
  }

  // A method of its own, so no local of the caller keeps the buffer, the base or the storage reachable.
  private static Tensor viewOfABufferNoOneElseHolds(java.lang.ref.WeakReference<ByteBuffer>[] buffer) {
    ByteBuffer b = direct(1 << 20);
    buffer[0] = new java.lang.ref.WeakReference<>(b);
    for (int i = 0; i < (1 << 18); i++) b.putFloat(4 * i, i);
    try (Tensor base = Tensor.fromBuffer(b, DType.FLOAT32, 1 << 18); Tensor part = base.narrow(0, 1000, 64);
         Tensor pairs = part.view(32, 2)) {
      return pairs.select(1, 0);
    }
  }

  @Test
  void aByteBufferOutlivesItsTensorAndAnEmptiedCache() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU);
    readThroughABufferAfterItsTensorClosed();
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "the collected buffer gave its storage back");
  }

  private static void readThroughABufferAfterItsTensorClosed() {
    ByteBuffer view;
    try (Tensor t = Tensor.arange(0, 1 << 16, 1, DType.INT32)) {
      view = t.asByteBuffer();
    }
    Memory.emptyCache(Device.CPU);
    try (Tensor reuse = Tensor.full(new long[] {1 << 16}, 7L, DType.INT32, Device.CPU)) {  // would take a freed block
      for (int i = 0; i < (1 << 16); i += 997) assertEquals(i, view.getInt(4 * i), "element " + i);
    }
  }

  @Test
  void resizeCannotPullTheBytesFromUnderAByteBuffer() throws InterruptedException {
    try (Tensor t = Tensor.arange(0, 256, 1, DType.INT32); Storage s = t.untypedStorage()) {
      holdABufferAndTryToResize(t, s);
      IllegalStateException e = null;
      for (int i = 0; i < 200; i++) {  // once the buffer is collected, the storage may be resized again
        System.gc();
        Thread.sleep(10);
        try {
          s.resize_(4096);
          e = null;
          break;
        } catch (IllegalStateException still) {
          e = still;
        }
      }
      assertEquals(null, e, "resize_ still refused after the buffer was collected");
      assertEquals(4096, s.nbytes());
    }
  }

  private static void holdABufferAndTryToResize(Tensor t, Storage s) {
    ByteBuffer view = t.asByteBuffer();
    IllegalStateException grow = assertThrows(IllegalStateException.class, () -> s.resize_(1 << 20));
    assertTrue(grow.getMessage().startsWith("resize_(): a ByteBuffer from asByteBuffer()"), grow.getMessage());
    assertThrows(IllegalStateException.class, () -> s.resize_(0));
    assertEquals(255, view.getInt(4 * 255), "the buffer still reads the storage's bytes");
  }

  @Test
  void aShrunkStorageGivesNoByteBufferPastItsEnd() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU);
    try (Tensor t = Tensor.zeros(1000); Storage s = t.untypedStorage()) {
      s.resize_(4);
      RuntimeException e = assertThrows(RuntimeException.class, t::asByteBuffer);
      assertTrue(e.getMessage().startsWith("asByteBuffer(): ") && e.getMessage().contains("outside the 4-byte storage"),
          e.getMessage());
      try (Tensor first = t.narrow(0, 0, 1)) {
        assertEquals(4, first.asByteBuffer().capacity(), "a view inside the shrunk bytes still gets one");
      }
    }
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
  }

  @Test
  void aClosedTensorLetsItsBufferBeCollected() throws InterruptedException {
    // Direct buffers are freed only when collected: a closed tensor (or a stale handle to one) that
    // still reached its buffer would exhaust -XX:MaxDirectMemorySize in a loop over batches.
    Tensor[] stale = new Tensor[1];
    java.lang.ref.WeakReference<ByteBuffer> buffer = wrapAndClose(stale);
    for (int i = 0; i < 200 && buffer.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(null, buffer.get(), "the buffer stayed reachable after every tensor over it was closed");
    assertThrows(IllegalStateException.class, stale[0]::numel, "the stale handle is closed");
  }

  private static java.lang.ref.WeakReference<ByteBuffer> wrapAndClose(Tensor[] stale) {
    ByteBuffer b = direct(1 << 20);
    try (Tensor t = Tensor.fromBuffer(b, DType.FLOAT32); Tensor view = t.narrow(0, 1, 4)) {
      stale[0] = view;
      view.fill_(1.0);
    }
    return new java.lang.ref.WeakReference<>(b);
  }

  @Test
  void aTensorOverAnotherTensorsBytesKeepsThemAfterItCloses() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU);
    Tensor over = overTheBytesOfAClosedTensor();
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(5);
    }
    Memory.emptyCache(Device.CPU);
    try (Tensor reuse = Tensor.zeros(1 << 14); Tensor part = over.narrow(0, 3, 3)) {  // reuse would take a freed block
      assertArrayEquals(new float[] {3, 4, 5}, part.toFloatArray());
    }
    over.close();
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(before, Memory.memoryAllocated(Device.CPU), "the last tensor and buffer gone, the storage went too");
  }

  private static Tensor overTheBytesOfAClosedTensor() {
    try (Tensor t = Tensor.arange(0, 1 << 14, 1, DType.FLOAT32)) {
      return Tensor.fromBuffer(t.asByteBuffer(), DType.FLOAT32);
    }
  }

  @Test
  void aJavaCppPointerWrappedWithItsDeallocatorLivesAsLongAsItsTensor() throws InterruptedException {
    // The documented way for JavaCPP memory: fromBuffer(pointer.asByteBuffer()) would keep only the
    // buffer, not the pointer, whose collection frees the memory under the tensor (a crash, found by a probe).
    @SuppressWarnings("unchecked")
    java.lang.ref.WeakReference<org.bytedeco.javacpp.BytePointer>[] pointer = new java.lang.ref.WeakReference[1];
    Tensor t = overAJavaCppPointerNoOneElseHolds(pointer);
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertTrue(pointer[0].get() != null, "the pointer was collected, so freed, under the tensor");
    try (Tensor sum = t.sum()) {
      assertEquals(1 << 20, sum.itemLong());
    }
    t.close();
    for (int i = 0; i < 200 && pointer[0].get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(null, pointer[0].get(), "the last close let the pointer go");
  }

  private static Tensor overAJavaCppPointerNoOneElseHolds(java.lang.ref.WeakReference<org.bytedeco.javacpp.BytePointer>[] out) {
    org.bytedeco.javacpp.BytePointer p = new org.bytedeco.javacpp.BytePointer(1 << 20);
    out[0] = new java.lang.ref.WeakReference<>(p);
    p.fill(1);
    try (Storage s = Storage.wrap(p.address(), p.capacity(), p::deallocate)) {
      return Tensor.empty(new long[] {0}, DType.UINT8).set_(s, 0, new long[] {1 << 20}, new long[] {1});
    }
  }

  @Test
  void buffersOfClosedTensorsDoNotRunAMemoryLimitOut() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU);
    // Each buffer holds its storage until collected; with little heap garbage nothing collects them,
    // and 16 closed 4 MiB tensors ran a 64 MiB limit out. Out of memory now collects and retries first.
    long limit = Memory.memoryLimit(Device.CPU);
    Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU) + (64L << 20));
    try {
      for (int i = 0; i < 100; i++) {
        try (Tensor t = Tensor.full(new long[] {1 << 20}, (double) i)) {
          assertEquals((float) i, t.asByteBuffer().getFloat(4 * 12345));
        }
      }
    } finally {
      Memory.setMemoryLimit(Device.CPU, limit);
    }
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
  }

  @Test
  void buffersStillHeldRefuseTheAllocationAtOnceWithOneOutOfMemory() throws InterruptedException {
    long before = Memory.memoryAllocated(Device.CPU);
    // Nothing is on its way back when every buffer is reachable: the refusal waits for no release
    // (Note [Waiting for garbage buffers]) and counts one num_ooms.
    long limit = Memory.memoryLimit(Device.CPU);
    java.util.List<ByteBuffer> held = new java.util.ArrayList<>();
    Memory.setMemoryLimit(Device.CPU, Memory.memoryReserved(Device.CPU) + (64L << 20));
    try {
      org.jtensor.memory.TensorOutOfMemoryException refused = assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class, () -> {
        for (int i = 0; i < 100; i++) {
          try (Tensor t = Tensor.full(new long[] {1 << 20}, (double) i)) {
            held.add(t.asByteBuffer());
          }
        }
      });
      assertTrue(held.size() >= 14 && held.size() <= 16, held.size() + " buffers of 4 MiB held under a 64 MiB limit");
      long ooms = refused.stats().get("num_ooms");
      assertThrows(org.jtensor.memory.TensorOutOfMemoryException.class, () -> Tensor.zeros(1 << 20).close());
      assertEquals(ooms + 1, Memory.memoryStats(Device.CPU).get("num_ooms"), "one refusal, one num_ooms");
      for (int i = 0; i < held.size(); i++) assertEquals((float) i, held.get(i).getFloat(4 * 777), "buffer " + i);
      held.clear();  // garbage now: the next allocation collects and waits for their releases
      try (Tensor t = Tensor.full(new long[] {1 << 20}, 7.0)) {
        assertEquals(7f, t.asByteBuffer().getFloat(0));
      }
    } finally {
      Memory.setMemoryLimit(Device.CPU, limit);
      held.clear();
    }
    for (int i = 0; i < 200 && Memory.memoryAllocated(Device.CPU) != before; i++) {
      System.gc();
      Thread.sleep(10);
    }
  }
}
