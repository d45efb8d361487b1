package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nested Java arrays in and out, and storage bytes to and from channels with no intermediate copy. */
class ArrayAndChannelTest {
  @TempDir
  Path dir;

  @Test
  void twoAndThreeDimensionalArraysRoundTrip() {
    float[][] f = {{1, 2, 3}, {4, 5, 6}};
    try (Tensor t = Tensor.fromArray(f)) {
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertEquals(DType.FLOAT32, t.dtype());
      assertArrayEquals(f, t.toFloatArray2d());
      try (Tensor tt = t.t()) {
        assertArrayEquals(new float[][] {{1, 4}, {2, 5}, {3, 6}}, tt.toFloatArray2d(), "a transposed view reads in its own order");
      }
      assertArrayEquals(new double[][] {{1, 2, 3}, {4, 5, 6}}, t.toDoubleArray2d(), "converted to the array's type");
    }
    double[][][] d = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}};
    try (Tensor t = Tensor.fromArray(d)) {
      assertArrayEquals(new long[] {3, 2, 2}, t.shape());
      assertArrayEquals(d, t.toDoubleArray3d());
      try (Tensor sum = t.sum()) {
        assertEquals(78.0, sum.item());
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, t::toFloatArray2d);
      assertEquals("toFloatArray2d(): expects a 2-D tensor, got 3-D", e.getMessage());
    }
    float[][][] f3 = {{{1}, {2}}, {{3}, {4}}};
    try (Tensor t = Tensor.fromArray(f3)) {
      assertArrayEquals(f3, t.toFloatArray3d());
    }
    long[][] l = {{Long.MAX_VALUE, -1}, {0, Long.MIN_VALUE}};
    try (Tensor t = Tensor.fromArray(l)) {
      assertEquals(DType.INT64, t.dtype());
      assertArrayEquals(l, t.toLongArray2d());
    }
    int[][] i = {{1, 2}, {3, 4}, {5, 6}};
    try (Tensor t = Tensor.fromArray(i)) {
      assertEquals(DType.INT32, t.dtype());
      assertArrayEquals(i, t.toIntArray2d());
    }
  }

  @Test
  void emptyAndRaggedArrays() {
    try (Tensor t = Tensor.fromArray(new float[0][5])) {
      assertArrayEquals(new long[] {0, 0}, t.shape(), "no row to read the column count from");
      assertEquals(0, t.toFloatArray2d().length);
    }
    try (Tensor t = Tensor.fromArray(new float[3][0])) {
      assertArrayEquals(new long[] {3, 0}, t.shape());
      assertArrayEquals(new float[3][0], t.toFloatArray2d());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(new float[][] {{1, 2}, {3}}));
    assertEquals("fromArray(): the array[1] has 1 elements but dim 1 has 2 (a ragged array)", e.getMessage());
    IllegalArgumentException n = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(new double[][][] {{{1}}, null}));
    assertEquals("fromArray(): the array[1] is null", n.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray((float[][]) null));
  }

  @Test
  void storageBytesGoToAFileAndBackThroughChannels() throws IOException {
    Path file = dir.resolve("bytes.bin");
    try (Tensor t = Tensor.fromArray(new long[] {10, 20, 30, 40}); Storage s = t.untypedStorage()) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        assertEquals(32, s.writeTo(ch, 0, 32));
        assertEquals(16, s.writeTo(ch, 8, 16));  // 20, 30 again
      }
    }
    assertEquals(48, Files.size(file));
    try (Storage s = Storage.allocate(48, Device.CPU); Tensor t = Tensor.empty(new long[] {0}, DType.INT64)) {
      try (FileChannel ch = FileChannel.open(file)) {
        assertEquals(8, s.readFrom(ch, 40, 8), "a part of the storage");
        assertEquals(40, s.readFrom(ch, 0, 40), "the rest; then the stream ends");
        assertEquals(0, s.readFrom(ch, 0, 8), "nothing is left to read");
      }
      t.set_(s, 0, new long[] {6}, new long[] {1});
      assertArrayEquals(new long[] {20, 30, 40, 20, 30, 10}, t.toLongArray(), "each read continues the stream");
      IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
          () -> s.readFrom(Channels.newChannel(new java.io.ByteArrayInputStream(new byte[8])), 44, 8));
      assertEquals("readFrom(): bytes [44, 44 + 8) are outside the 48-byte storage", e.getMessage());
      assertThrows(IndexOutOfBoundsException.class, () -> s.writeTo(Channels.newChannel(new java.io.ByteArrayOutputStream()), -1, 4));
    }
    try (Storage ro = Storage.wrap(ByteBuffer.allocateDirect(8).asReadOnlyBuffer())) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> ro.readFrom(Channels.newChannel(new java.io.ByteArrayInputStream(new byte[8])), 0, 8));
      assertTrue(e.getMessage().startsWith("readFrom(): the read-only wrapped storage of 8 bytes"), e.getMessage());
    }
  }

  @Test
  void aClosedStorageRefusesTransfers() {
    Storage s = Storage.allocate(8, Device.CPU);
    s.close();
    assertThrows(IllegalStateException.class, () -> s.writeTo(Channels.newChannel(new java.io.ByteArrayOutputStream()), 0, 8));
  }
}
