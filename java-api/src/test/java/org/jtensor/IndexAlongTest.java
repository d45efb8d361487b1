package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The native along-dim kernel (gather, scatter, scatterAdd, indexSelect, indexAdd_) on strided
 * operands and int32 indices, against a plain Java reference over the same values; a bad index,
 * negative ones included (none of these ops wraps them, as PyTorch's do not), is reported by value
 * and nothing is written.
 */
class IndexAlongTest extends ScopedTest {
  private final SplittableRandom rng = new SplittableRandom(7);

  /** A 3x4x5 float64 tensor with distinct values, seen through a permutation (non-contiguous). */
  private Tensor strided() {
    return Tensor.arange(0, 60, 1, DType.FLOAT64).view(5, 4, 3).permute(2, 1, 0);  // sizes 3x4x5
  }

  private Tensor randomIndex(long bound, long... shape) {
    long n = 1;
    for (long s : shape) n *= s;
    long[] v = new long[(int) n];
    for (int i = 0; i < v.length; i++) v[i] = rng.nextLong(bound);
    return Tensor.fromArray(v, shape);
  }

  private static double at(Tensor t, long... p) {
    return t.getDouble(p);
  }

  @Test
  void gatherAlongEveryDimMatchesTheReference() {
    Tensor x = strided();
    for (int d = 0; d < 3; d++) {
      long[] shape = {2, 3, 4};
      Tensor idx = randomIndex(x.shape()[d], shape);
      Tensor g = x.gather(d, idx);
      for (long i = 0; i < 2; i++) for (long j = 0; j < 3; j++) for (long k = 0; k < 4; k++) {
        long[] p = {i, j, k};
        p[d] = (long) at(idx, i, j, k);
        assertEquals(at(x, p), at(g, i, j, k), "gather dim " + d);
      }
    }
  }

  @Test
  void indexSelectWithAStridedInt32IndexMatchesTheReference() {
    Tensor x = strided();
    Tensor wide = Tensor.fromArray(new int[] {2, 9, 1, 9, 0, 9}, 6);
    Tensor idx = wide.slice(0, 0, 6, 2);  // [2, 1, 0], stride 2
    for (int d = 0; d < 3; d++) {
      Tensor sel = x.indexSelect(d, idx);
      long[] s = sel.shape();
      for (long i = 0; i < s[0]; i++) for (long j = 0; j < s[1]; j++) for (long k = 0; k < s[2]; k++) {
        long[] p = {i, j, k};
        p[d] = new long[] {2, 1, 0}[(int) p[d]];
        assertEquals(at(x, p), at(sel, i, j, k), "indexSelect dim " + d);
      }
    }
  }

  @Test
  void scatterAddIntoATransposedTensorAddsRepeatedPositions() {
    Tensor base = Tensor.zeros(new long[] {4, 3}, DType.FLOAT64).transpose(0, 1);  // 3x4, strides (1, 3)
    Tensor idx = Tensor.fromArray(new long[] {0, 2, 3, 3, 1, 1, 1, 0}, 2, 4);
    Tensor src = Tensor.arange(1, 9, 1, DType.FLOAT64).view(2, 4);
    Tensor r = base.scatterAdd(1, idx, src);
    double[][] want = new double[3][4];
    for (int i = 0; i < 2; i++) for (int j = 0; j < 4; j++) {
      long v = (long) at(idx, i, j);
      want[i][(int) v] += at(src, i, j);
    }
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) assertEquals(want[i][j], at(r, i, j));
  }

  @Test
  void integerAccumulationWrapsAndFloat16Accumulates() {
    Tensor bytes = Tensor.full(new long[] {2}, 120L, DType.INT8, Device.CPU);
    bytes.scatterAdd_(0, Tensor.fromArray(new long[] {0, 0}, 2), Tensor.full(new long[] {2}, 10L, DType.INT8, Device.CPU));
    assertArrayEquals(new long[] {-116, 120}, bytes.to(DType.INT64).toLongArray());
    Tensor half = Tensor.zeros(new long[] {3}, DType.FLOAT16);
    half.indexAdd_(0, Tensor.fromArray(new int[] {2, 2, 0}, 3), Tensor.ones(new long[] {3}, DType.FLOAT16), 0.5);
    assertArrayEquals(new float[] {0.5f, 0, 1}, half.toFloatArray());
  }

  @Test
  void aBadIndexIsReportedByValueAndNothingIsWritten() {
    Tensor x = Tensor.zeros(3, 4);
    Tensor idx = Tensor.fromArray(new long[] {0, 1, 2, 7}, 1, 4);  // the bad one comes last
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> x.scatter_(0, idx, Tensor.ones(1, 4)));
    assertEquals("scatter_(): index 7 is out of bounds for dimension 0 with size 3", e.getMessage());
    assertArrayEquals(new float[12], x.toFloatArray(), "nothing written before the check");
  }

  /** PyTorch 2.13's words: index_select and index_add_ say "index out of range in self", the others name the index. */
  @Test
  void negativeIndicesAreRefusedAsPyTorchRefusesThem() {
    Tensor x = Tensor.arange(0, 12, 1, DType.FLOAT32).view(3, 4);
    Tensor before = x.clone();
    Tensor neg = Tensor.fromArray(new long[] {0, -1}, 2);
    Tensor negRow = Tensor.fromArray(new long[] {0, -1, 1, 2}, 1, 4);
    String bounds = "index -1 is out of bounds for dimension 0 with size 3";
    assertRefused("indexSelect(): index out of range in self (" + bounds + ")", () -> x.indexSelect(0, neg));
    assertRefused("gather(): " + bounds, () -> x.gather(0, negRow));
    assertRefused("scatter_(): " + bounds, () -> x.scatter_(0, negRow, Tensor.ones(1, 4)));
    assertRefused("scatterAdd_(): " + bounds, () -> x.scatterAdd_(0, negRow, Tensor.ones(1, 4)));
    assertRefused("indexAdd_(): index out of range in self (" + bounds + ")", () -> x.indexAdd_(0, neg, Tensor.ones(2, 4)));
    assertRefused("indexSelect(): index out of range in self (index -5 is out of bounds for dimension 1 with size 4)",
        () -> x.indexSelect(1, Tensor.fromArray(new int[] {-5}, 1)));
    assertArrayEquals(before.toFloatArray(), x.toFloatArray(), "nothing written");
    // advanced indexing wraps negative indices, as PyTorch's x[t] does
    assertArrayEquals(new float[] {8, 9, 10, 11}, x.get(Index.of(Tensor.fromArray(new long[] {-1}, 1))).toFloatArray());
  }

  private static void assertRefused(String message, Runnable call) {
    assertEquals(message, assertThrows(IndexOutOfBoundsException.class, call::run).getMessage());
  }
}
