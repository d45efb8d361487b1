package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Indexing on CUDA against the CPU, on a GPU machine (tag cuda): gather, index_select, scatter,
 * scatter_add, index_add_ and advanced get/set, for every dtype, over permuted operands, int32 and
 * int64 indices (negative ones wrap in advanced indexing and are refused along one dim); and a bad
 * index: the same exception on both, nothing written.
 * Values are small integers, so float sums agree exactly whatever order the atomics add in.
 */
@Tag("cuda")
@org.junit.jupiter.api.extension.ExtendWith(CudaAccounting.class)
class CudaIndexTest {

  private static Tensor values(DType dtype, int seed, long... shape) {
    long n = 1;
    for (long s : shape) n *= s;
    double[] v = new double[(int) n];
    for (int i = 0; i < n; i++) {
      long x = (i * 7919L + seed * 31L) % 13;
      v[i] = dtype == DType.BOOL ? x % 3 == 0 ? 1 : 0 : dtype == DType.UINT8 ? x : x - 6;
    }
    try (Tensor d = Tensor.fromArray(v, shape)) {
      return d.to(dtype);
    }
  }

  /** f on the CPU and on CUDA (the inputs moved by f's argument): the same values, or the same exception. */
  private static void same(String what, Function<Boolean, Tensor> f) {
    try (TensorScope s = TensorScope.open()) {
      Tensor want;
      try {
        want = f.apply(false);
      } catch (RuntimeException e) {
        RuntimeException got = assertThrows(RuntimeException.class, () -> f.apply(true), what);
        assertEquals(e.getClass(), got.getClass(), what);
        assertEquals(e.getMessage(), got.getMessage(), what);
        return;
      }
      Tensor got = f.apply(true).cpu();
      assertEquals(want.dtype(), got.dtype(), what);
      assertArrayEquals(want.shape(), got.shape(), what);
      assertArrayEquals(want.to(DType.FLOAT64).toDoubleArray(), got.to(DType.FLOAT64).toDoubleArray(), what);
    }
  }

  private static Tensor on(boolean gpu, Tensor t) {
    return gpu ? t.to(CudaAccounting.device()) : t;  // the CPU in a dry run
  }

  private static Tensor longs(boolean gpu, long[] v, long... shape) {
    return on(gpu, Tensor.fromArray(v, shape));
  }

  private static Tensor ints(boolean gpu, int[] v, long... shape) {
    return on(gpu, Tensor.fromArray(v, shape));
  }

  @Test
  void alongOneDimMatchesTheCpuForEveryDtype() {
    for (DType dt : DType.values()) {
      String w = dt.toString();
      for (int d = 0; d < 3; d++) {
        final int dim = d;
        // x: 3x4x5 as a permuted view; the index one size smaller on every dim
        long[] gatherIndex = {0, 1, 2, 1, 0, 0, 1, 2, 0, 1, 1, 2, 0, 2, 1, 0, 0, 1, 2, 1, 0, 1, 0, 1};
        same(w + " gather " + dim, g -> on(g, values(dt, 1, 5, 4, 3)).permute(2, 1, 0)
            .gather(dim, longs(g, gatherIndex, 2, 3, 4)));
        same(w + " index_select " + dim, g -> on(g, values(dt, 2, 3, 4, 5))  // a strided int32 index
            .indexSelect(dim, ints(g, new int[] {2, 2, 0, 0, 1}, 5).get(Index.slice(null, null, 2L))));
        long[] addIndex = {0, 0, 1, 2, 1, 0, 2, 0, 1, 1, 0, 0};
        same(w + " scatter_add " + dim, g -> on(g, values(dt, 3, 5, 4, 3)).permute(2, 1, 0)
            .scatterAdd(dim, longs(g, addIndex, 2, 2, 3), on(g, values(dt, 4, 2, 2, 3))));
      }
      // scatter: distinct positions along dim 1 in each row, so the result is unique
      same(w + " scatter", g -> on(g, values(dt, 5, 3, 4))
          .scatter(1, longs(g, new long[] {3, 0, 1, 2, 1, 3, 0, 3, 2}, 3, 3), on(g, values(dt, 6, 3, 3))));
      same(w + " index_add_", g -> on(g, values(dt, 7, 4, 3))
          .indexAdd_(0, ints(g, new int[] {3, 0, 3, 2, 1}, 5), on(g, values(dt, 8, 5, 3)), 2));
      same(w + " get", g -> on(g, values(dt, 9, 4, 5, 2))
          .get(Index.of(longs(g, new long[] {3, -4, 1}, 3, 1)), Index.all(), Index.of(longs(g, new long[] {1, 0}, 2))));
      same(w + " set", g -> on(g, values(dt, 10, 4, 5))  // x[[[2], [-1]], [0, 4, -3]] = value: distinct positions
          .set(on(g, values(dt, 11, 2, 3)), Index.of(longs(g, new long[] {2, -1}, 2, 1)),
              Index.of(longs(g, new long[] {0, 4, -3}, 3))));
    }
  }

  @Test
  void aBadIndexFailsAsOnTheCpuAndWritesNothing() {
    for (boolean g : new boolean[] {false, true}) {
      try (TensorScope s = TensorScope.open()) {
        Tensor x = on(g, Tensor.zeros(3, 4));
        Tensor idx = longs(g, new long[] {0, 9, 2, -8}, 1, 4);  // 9 comes first in the CPU's order
        Tensor ones = on(g, Tensor.ones(1, 4));
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> x.scatterAdd_(1, idx, ones));
        assertTrue(e.getMessage().contains("index 9 "), e.getMessage());
        Tensor rows = longs(g, new long[] {1, 3}, 2);
        assertThrows(IndexOutOfBoundsException.class, () -> x.set(on(g, Tensor.ones(4)), Index.of(rows)));
        assertArrayEquals(new double[12], x.to(DType.FLOAT64).cpu().toDoubleArray(), "nothing written");
      }
    }
    same("gather bad", g -> on(g, Tensor.zeros(3, 4)).gather(0, longs(g, new long[] {0, 1, -4, 5}, 1, 4)));
    same("gather negative", g -> on(g, Tensor.zeros(3, 4)).gather(0, longs(g, new long[] {0, 1, -1, 2}, 1, 4)));  // refused on both
    same("get bad", g -> on(g, Tensor.zeros(3, 4)).get(Index.all(), Index.of(ints(g, new int[] {1, -5, 7}, 3))));
  }
}
