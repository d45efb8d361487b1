package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tensor.fromBuffer and asByteBuffer tried as an attacker would: shapes whose byte count
 * overflows, buffers sliced, limited and empty, read-only mapped files, bool over any byte, and
 * buffers that outlive their tensor or the storage's size.
 */
class BufferHostileTest extends ScopedTest {
  private static ByteBuffer direct(int n) {
    return ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
  }

  @Test
  void shapesWhoseByteCountOverflowsAreRefusedBeforeAnyTensorExists() {
    ByteBuffer b = direct(16);
    // 2^61 float64s are 2^64 bytes: wrapped to 0, they "fitted" in 16 and a kernel walked 2^61 elements.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT64, 1L << 61));
    assertTrue(e.getMessage().startsWith("fromBuffer(): ") && e.getMessage().contains("overflow"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.INT32, 1L << 62, 1L << 2));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, 1L << 32, 1L << 32));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, Long.MAX_VALUE));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, -1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, 2, -2));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, null, 1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(b, DType.FLOAT32, (long[]) null));
    Tensor none = Tensor.fromBuffer(b, DType.FLOAT64, 0, Long.MAX_VALUE);  // 0 elements: legal, as in torch
    assertArrayEquals(new long[] {0, Long.MAX_VALUE}, none.shape());
    assertEquals(0.0, none.sum().item());
  }

  @Test
  void slicesDuplicatesAndLimitsAreHonoured() {
    ByteBuffer b = direct(32);
    for (int i = 0; i < 8; i++) b.putFloat(4 * i, i);
    ByteBuffer tail = b.slice(16, 16).order(ByteOrder.nativeOrder());
    assertArrayEquals(new float[] {4, 5, 6, 7}, Tensor.fromBuffer(tail, DType.FLOAT32, 4).toFloatArray());
    ByteBuffer limited = b.duplicate().position(4).limit(12);
    assertArrayEquals(new float[] {1, 2}, Tensor.fromBuffer(limited, DType.FLOAT32, 2).toFloatArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(limited, DType.FLOAT32, 3), "the limit, not the capacity");
    ByteBuffer drained = b.duplicate().position(32);  // nothing remaining, capacity 32
    Tensor empty = Tensor.fromBuffer(drained, DType.FLOAT32, 0);
    assertEquals(0, empty.numel());
    assertEquals(0, empty.asByteBuffer().capacity());
    try (Tensor none = Tensor.zeros(0); Storage s = none.untypedStorage()) {
      assertEquals(0, none.asByteBuffer().capacity());
      s.resize_(64);  // a buffer over no byte holds nothing back
    }
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromBuffer(drained, DType.FLOAT32, 1));
    assertArrayEquals(new float[] {1, 2}, Tensor.fromBuffer(limited, DType.FLOAT32).toFloatArray(),
        "no shape: 1-D over the remaining bytes, as torch.frombuffer and fromArray(float[])");
    assertEquals(0, Tensor.fromBuffer(drained, DType.FLOAT64).numel());
    IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromBuffer(b.duplicate().limit(6), DType.FLOAT32));
    assertTrue(odd.getMessage().contains("6 remaining bytes are not a multiple of float32's 4"), odd.getMessage());
    Tensor shared = Tensor.fromBuffer(limited, DType.FLOAT32, 2);
    shared.fill_(-1.0);
    assertEquals(-1f, b.getFloat(4), "a tensor over a duplicate writes through to the original");
    assertEquals(3f, b.getFloat(12), "and nothing past its limit");
    assertEquals(0f, b.getFloat(0), "nor before its position");
  }

  @Test
  void boolOverEveryByteReadsNonzeroAsTrueAndConvertsToZeroOrOne() {
    ByteBuffer b = direct(256);
    for (int i = 0; i < 256; i++) b.put(i, (byte) i);
    Tensor t = Tensor.fromBuffer(b, DType.BOOL, 256);
    boolean[] v = t.toBooleanArray();
    for (int i = 0; i < 256; i++) assertEquals(i != 0, v[i], "byte " + i);
    assertEquals(255, t.sum().itemLong());
    long[] asLong = t.to(DType.INT64).toLongArray();
    for (int i = 0; i < 256; i++) assertEquals(i != 0 ? 1 : 0, asLong[i], "byte " + i + " as int64");
    assertEquals(1, t.logicalNot().sum().itemLong());
    assertEquals(255, t.eq(Tensor.scalar(true)).sum().itemLong(), "every nonzero byte equals True");
  }

  @Test
  void aReadOnlyMappedFileIsReadableAndRefusesEveryWrite(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("weights.bin");
    ByteBuffer data = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 6; i++) data.putFloat(i * 1.5f);
    Files.write(file, data.array());
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 24);
      Tensor t = Tensor.fromBuffer(map.order(ByteOrder.LITTLE_ENDIAN), DType.FLOAT32, 2, 3);
      assertArrayEquals(new float[] {0, 1.5f, 3, 4.5f, 6, 7.5f}, t.toFloatArray());
      assertThrows(IllegalStateException.class, () -> t.fill_(0.0));
      assertThrows(IllegalStateException.class, () -> t.t().mul_(2.0));
      assertThrows(IllegalStateException.class, () -> t.copy_(Tensor.zeros(2, 3)));
      try (Storage s = t.untypedStorage()) {
        assertTrue(s.isReadOnly());
        assertThrows(IllegalStateException.class, () -> s.fill_((byte) 0));
      }
      assertArrayEquals(new float[] {0, 1.5f, 3, 4.5f, 6, 7.5f}, t.toFloatArray(), "the mapping was never written");
    }
    assertArrayEquals(data.array(), Files.readAllBytes(file), "nor the file");
  }

  @Test
  void wrappedStatsCountEachWrapOnceAndTheirRelease() {
    Map<String, Long> a = Memory.memoryStats(Device.CPU);
    Tensor t = Tensor.fromBuffer(direct(48), DType.INT64, 6);
    Tensor v = t.narrow(0, 1, 2);
    Storage s = Storage.wrap(direct(16).position(8));  // only the 8 remaining bytes
    Map<String, Long> b = Memory.memoryStats(Device.CPU);
    assertEquals(56, b.get("wrapped_bytes.current") - a.get("wrapped_bytes.current"));
    assertEquals(56, b.get("wrapped_bytes.allocated") - a.get("wrapped_bytes.allocated"));
    assertTrue(b.get("wrapped_bytes.peak") >= b.get("wrapped_bytes.current"));
    assertEquals(a.get("allocated_bytes.all.current"), b.get("allocated_bytes.all.current"), "not the caching allocator's");
    t.close();
    s.close();
    Map<String, Long> c = Memory.memoryStats(Device.CPU);
    assertEquals(48, c.get("wrapped_bytes.current") - a.get("wrapped_bytes.current"), "the view still holds its 48");
    assertEquals(8, c.get("wrapped_bytes.freed") - a.get("wrapped_bytes.freed"));
    v.close();
    Map<String, Long> d = Memory.memoryStats(Device.CPU);
    assertEquals(a.get("wrapped_bytes.current"), d.get("wrapped_bytes.current"));
    assertEquals(56, d.get("wrapped_bytes.freed") - a.get("wrapped_bytes.freed"));
  }

  @Test
  void wrappedPeakAndAccumulatedStatsResetWithTheAllocatorsOnes() {
    Memory.resetPeakMemoryStats(Device.CPU);
    Memory.resetAccumulatedMemoryStats(Device.CPU);
    Map<String, Long> a = Memory.memoryStats(Device.CPU);
    assertEquals(a.get("wrapped_bytes.current"), a.get("wrapped_bytes.peak"), "the peak resets to the current count");
    assertEquals(0L, a.get("wrapped_bytes.allocated"));
    assertEquals(0L, a.get("wrapped_bytes.freed"));
    try (Tensor big = Tensor.fromBuffer(direct(1 << 20), DType.UINT8, 1 << 20)) {
      assertEquals(1L << 20, Memory.memoryStats(Device.CPU).get("wrapped_bytes.current") - a.get("wrapped_bytes.current"));
    }
    Map<String, Long> b = Memory.memoryStats(Device.CPU);
    assertEquals(a.get("wrapped_bytes.current") + (1L << 20), b.get("wrapped_bytes.peak"), "the peak remembers the 1 MiB");
    assertEquals(1L << 20, b.get("wrapped_bytes.allocated"));
    assertEquals(1L << 20, b.get("wrapped_bytes.freed"));
  }

  @Test
  void aPositionMovedByAnotherThreadNeverGivesAStoragePastTheBuffer() throws InterruptedException {
    ByteBuffer b = direct(64);
    long base = new org.bytedeco.javacpp.Pointer(b).address();
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread mover = new Thread(() -> {
      for (int i = 0; !stop.get(); i++) b.position(i % 2 == 0 ? 48 : 0);
    });
    mover.start();
    try {
      for (int i = 0; i < 20000; i++) {
        try (Storage s = Storage.wrap(b)) {
          long end = s.dataPtr() == 0 ? base : s.dataPtr() + s.nbytes();
          assertTrue(end <= base + 64, "a storage of " + s.nbytes() + " bytes at offset " + (s.dataPtr() - base)
              + " reaches past the 64-byte buffer");
        }
      }
    } finally {
      stop.set(true);
      mover.join();
    }
  }
}
