package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jtensor.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * 2-D and 3-D Java arrays as a hostile caller passes them: ragged or null at any depth, empty
 * dims, views and dtypes to convert on the way out, sizes past an array's reach, and rows
 * swapped by another thread while they are copied in.
 */
class NestedArrayHostileTest extends ScopedTest {
  @Test
  void raggedOrNullAtAnyDepthIsRefusedWithItsPlace() {
    IllegalArgumentException deep = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(new float[][][] {{{1, 2}, {3, 4}}, {{5, 6}, {7}}}));
    assertEquals("fromArray(): the array[1][1] has 1 elements but dim 2 has 2 (a ragged array)", deep.getMessage());
    IllegalArgumentException shortFirst = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(new double[][] {{1}, {2, 3}}));
    assertTrue(shortFirst.getMessage().contains("ragged"), shortFirst.getMessage());
    IllegalArgumentException nullLeaf = assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(new float[][][] {{null}}));
    assertTrue(nullLeaf.getMessage().startsWith("fromArray(): the array") && nullLeaf.getMessage().contains("null"),
        nullLeaf.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new int[][] {{1}, null}));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(new long[][] {null}));
    assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray((double[][][]) null));
  }

  @Test
  void emptyDimsGiveEmptyTensorsAndArraysBack() {
    Tensor a = Tensor.fromArray(new float[2][0][3]);
    assertArrayEquals(new long[] {2, 0, 0}, a.shape(), "no row at dim 1 to read dim 2 from");
    assertEquals(2, a.toFloatArray3d().length);
    Tensor b = Tensor.zeros(new long[] {0, 4}, DType.INT64);
    assertEquals(0, b.toLongArray2d().length);
    Tensor c = Tensor.zeros(new long[] {3, 0});
    assertArrayEquals(new double[3][0], c.toDoubleArray2d());
  }

  @Test
  void viewsAndOtherDtypesComeOutInLogicalOrderAndConverted() {
    Tensor m = Tensor.arange(0, 12, 1, DType.INT64).view(3, 4);
    assertArrayEquals(new int[][] {{1, 5, 9}, {3, 7, 11}}, m.t().narrow(0, 1, 3).get(Index.slice(0, 3, 2)).toIntArray2d());
    assertArrayEquals(new float[][] {{4, 5, 6, 7}, {4, 5, 6, 7}}, m.select(0, 1).expand(2, 4).toFloatArray2d(), "stride 0");
    Tensor f = Tensor.fromArray(new float[] {2.7f, -2.7f, 0.5f, -0.5f}, 2, 2);
    assertArrayEquals(new long[][] {{2, -2}, {0, 0}}, f.toLongArray2d(), "float to int truncates toward zero, as torch");
    ByteBuffer raw = ByteBuffer.allocateDirect(4);
    raw.put(0, (byte) 0).put(1, (byte) 2).put(2, (byte) 255).put(3, (byte) 1);
    Tensor bools = Tensor.fromBuffer(raw, DType.BOOL, 2, 2);
    assertArrayEquals(new int[][] {{0, 1}, {1, 1}}, bools.toIntArray2d(), "any nonzero byte of a bool is 1");
    Tensor cube = Tensor.arange(0, 24, 1, DType.INT32).view(2, 3, 4).permute(2, 0, 1);
    float[][][] out = cube.toFloatArray3d();
    assertEquals(4, out.length);
    assertEquals(13f, out[1][1][0]);
    assertThrows(IllegalArgumentException.class, () -> Tensor.scalar(1.0).toFloatArray2d());
    Tensor closed = Tensor.zeros(2, 2);
    closed.close();
    assertThrows(IllegalStateException.class, closed::toFloatArray2d);
    Tensor meta = Tensor.empty(new long[] {2, 2}, DType.FLOAT32, Device.META);
    assertThrows(UnsupportedOperationException.class, meta::toFloatArray2d);
  }

  @Test
  void dimsPastAnArraysReachAreRefusedBeforeAnyCopyIsMade() {
    Tensor one = Tensor.ones(1, 1), cell = Tensor.ones(1, 1, 1);
    Memory.resetPeakMemoryStats(Device.CPU);
    long allocated = Memory.memoryAllocated(Device.CPU);
    Tensor tall = one.expand(1L << 31, 1), wide = one.expand(1, 1L << 31);
    for (Tensor t : new Tensor[] {tall, wide}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, t::toFloatArray2d);
      assertTrue(e.getMessage().startsWith("toFloatArray2d(): "), e.getMessage());
    }
    Tensor deep = cell.expand(1, 1L << 32, 1);
    assertThrows(IllegalArgumentException.class, deep::toDoubleArray3d);
    assertEquals(allocated, Memory.maxMemoryAllocated(Device.CPU), "no clone of 2^31 elements was made, not even briefly");
  }

  @Test
  void rowsSwappedByAnotherThreadGiveAnExceptionOrAnArraysValuesNeverACrash() throws InterruptedException {
    float[][] data = {{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
    float[][] swaps = {{9}, new float[4096], {5, 5, 5, 5}, null};
    AtomicBoolean stop = new AtomicBoolean();
    Thread vandal = new Thread(() -> {
      for (int i = 0; !stop.get(); i++) data[i % 2 == 0 ? 1 : 2] = swaps[i % swaps.length];
    });
    vandal.start();
    try {
      for (int i = 0; i < 2000; i++) {
        try (Tensor t = Tensor.fromArray(data)) {
          assertArrayEquals(new long[] {3, 4}, t.shape());
          assertArrayEquals(new float[] {1, 1, 1, 1}, t.select(0, 0).toFloatArray(), "a row no one touched");
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException expected) {
          // the array changed under the copy: refused, and the tensor made for it was freed
        }
      }
    } finally {
      stop.set(true);
      vandal.join();
    }
  }
}
