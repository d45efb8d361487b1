package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Python indexing: basic forms view, advanced forms copy, with numpy's placement of index dims. */
class IndexingTest extends ScopedTest {
  private Tensor x;  // arange(24).view(2, 3, 4)

  @BeforeEach
  void makeX() {
    x = Tensor.arange(24).view(2, 3, 4);
  }

  private static Tensor longs(long... v) {
    return Tensor.fromArray(v);
  }

  @Test
  void basicIndexingGivesViews() {
    Tensor v = x.get(Index.at(1), Index.none(), Index.slice(null, null, 2L));
    assertArrayEquals(new long[] {1, 2, 4}, v.shape());
    assertArrayEquals(new long[] {12, 13, 14, 15, 20, 21, 22, 23}, v.toLongArray());
    assertTrue(v.isAliasOf(x) && v.isView());
    Tensor e = x.get(Index.ellipsis(), Index.at(-1));
    assertArrayEquals(new long[] {3, 7, 11, 15, 19, 23}, e.toLongArray());
    assertThrows(IllegalArgumentException.class, () -> x.get(Index.ellipsis(), Index.ellipsis()));
    assertThrows(IllegalArgumentException.class, () -> x.get(Index.slice(null, null, -1L)));
    assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.at(0), Index.at(0), Index.at(0), Index.at(0)));
  }

  @Test
  void integerTensorsGatherCopies() {
    Tensor r = x.get(Index.all(), Index.of(longs(2, 0, -1)));
    assertArrayEquals(new long[] {2, 3, 4}, r.shape());
    assertArrayEquals(new long[] {8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}, r.select(0, 0).toLongArray());
    assertFalse(r.isAliasOf(x));
    // adjacent advanced indices broadcast together and stay in place
    Tensor a = x.get(Index.all(), Index.of(longs(0, 2)), Index.of(longs(1, 3)));
    assertArrayEquals(new long[] {2, 2}, a.shape());
    assertArrayEquals(new long[] {1, 11, 13, 23}, a.toLongArray());
    // separated advanced indices move the broadcast dims to the front
    Tensor s = x.get(Index.of(longs(1, 0)), Index.all(), Index.of(longs(3)));
    assertArrayEquals(new long[] {2, 3}, s.shape());
    assertArrayEquals(new long[] {15, 19, 23, 3, 7, 11}, s.toLongArray());
    Tensor twoD = x.get(Index.of(Tensor.fromArray(new long[] {0, 1, 1, 0}, 2, 2)));
    assertArrayEquals(new long[] {2, 2, 3, 4}, twoD.shape());
    assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(longs(2))));
    assertThrows(IllegalArgumentException.class, () -> x.get(Index.of(Tensor.zeros(1))));
  }

  @Test
  void boolMasksSelectTrueElements() {
    Tensor m = Tensor.fromArray(new boolean[] {true, false, true}, 3);
    Tensor r = x.get(Index.at(0), Index.of(m));
    assertArrayEquals(new long[] {2, 4}, r.shape());
    assertArrayEquals(new long[] {0, 1, 2, 3, 8, 9, 10, 11}, r.toLongArray());
    Tensor full = Tensor.fromArray(new boolean[] {false, true, false, false, false, true}, 2, 3);
    assertArrayEquals(new long[] {4, 5, 6, 7, 20, 21, 22, 23}, x.get(Index.of(full)).toLongArray());
    assertArrayEquals(new long[] {1, 2, 3, 4}, x.get(Index.of(Tensor.scalar(true))).shape());
    assertArrayEquals(new long[] {0, 2, 3, 4}, x.get(Index.of(Tensor.scalar(false))).shape());
    assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(Tensor.fromArray(new boolean[] {true, false, true}))).close());
  }

  @Test
  void assignmentThroughBasicAndAdvancedIndices() {
    Tensor y = Tensor.zeros(new long[] {3, 4}, DType.FLOAT32);
    y.set(new Index[] {Index.at(1)}, 5.0);
    y.set(new Index[] {Index.all(), Index.of(longs(0, 3))}, Tensor.fromArray(new float[] {-1, -2}));
    y.set(new Index[] {Index.of(Tensor.fromArray(new boolean[] {true, false, false}))}, 9L);
    assertArrayEquals(new float[] {9, 9, 9, 9, -1, 5, 5, -2, -1, 0, 0, -2}, y.toFloatArray());
    int v = y.version();
    y.set(new Index[] {Index.of(longs(2, 2))}, 7.0);
    assertTrue(y.version() > v);
    assertArrayEquals(new float[] {7, 7, 7, 7}, y.select(0, 2).toFloatArray());
    assertThrows(IllegalArgumentException.class,
        () -> y.set(new Index[] {Index.of(longs(0, 1))}, Tensor.zeros(3)));
  }

  @Test
  void theNativeKernelReadsStridedAndInt32IndicesAndChecksThem() {
    Tensor t = x.permute(2, 0, 1);  // 4 x 2 x 3, not contiguous
    Tensor rows = Tensor.fromArray(new int[] {3, -4, 9, 1}, 4).slice(0, 0, 4, 2);  // int32 [3, 9], stride 2
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> t.get(Index.of(rows)));
    org.junit.jupiter.api.Assertions.assertEquals("get(): index 9 is out of bounds for dimension 0 with size 4", e.getMessage());
    Tensor ok = Tensor.fromArray(new int[] {2, 7, -3, 7}, 4).slice(0, 0, 4, 2);  // [2, -3]
    Tensor r = t.get(Index.all(), Index.at(1), Index.of(ok));  // t[i, 1, k] = x[1, k, i] = 12 + 4k + i
    assertArrayEquals(new long[] {4, 2}, r.shape());
    assertArrayEquals(new long[] {20, 12, 21, 13, 22, 14, 23, 15}, r.toLongArray());
    Tensor y = Tensor.zeros(3, 4);
    IndexOutOfBoundsException s = assertThrows(IndexOutOfBoundsException.class,
        () -> y.set(new Index[] {Index.all(), Index.of(Tensor.fromArray(new long[] {0, 4}))}, 1.0));
    org.junit.jupiter.api.Assertions.assertEquals("set(): index 4 is out of bounds for dimension 1 with size 4", s.getMessage());
    assertArrayEquals(new float[12], y.toFloatArray(), "nothing written before the check");
    Tensor nz = x.permute(2, 1, 0).remainder(5L).nonzero();  // strided source, row-major coordinates
    org.junit.jupiter.api.Assertions.assertEquals(24 - 5, nz.shape()[0]);
    assertArrayEquals(new long[] {0, 0, 1}, nz.select(0, 0).toLongArray());
  }
}
