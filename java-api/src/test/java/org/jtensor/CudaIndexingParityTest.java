package org.jtensor;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Indexing on cuda:0 against the CPU (tag cuda): index_select, gather, scatter, scatter_add,
 * index_add_, advanced indexing (get and set, integer and bool indices, adjacent and separated),
 * masked_fill, masked_select, nonzero and where, over dtypes and layouts, with out-of-range indices
 * refused the same way. Values are small integers, so every float sum is exact and float results
 * too must be equal whatever order CUDA's atomics add in; scatter's indices are unique per slot.
 */
class CudaIndexingParityTest extends CudaParity {
  private static Tensor indices(Random rnd, long bound, long... shape) {
    return Tensor.randint(0, bound, shape, new Generator(rnd.nextLong()));
  }

  /** An index that is a permutation of 0..size(dim)-1 along dim in every slot: scatter writes each place once. */
  private static Tensor permutations(Random rnd, long[] shape, int dim) {
    return Tensor.rand(shape, new Generator(rnd.nextLong())).argsort(dim, false);
  }

  @Test
  void indexSelectGatherScatterAndIndexAddAgree() {
    expectRefusal("(indexSelect|gather) out of range", IndexOutOfBoundsException.class);
    Random rnd = new Random(17);
    long[] shape = {37, 29};
    for (DType dt : DTYPES) {
      for (int layout = 0; layout < 3; layout++) {
        for (int dim = 0; dim < 2; dim++) {
          final int d = dim;
          String at = dt + " layout " + layout + " dim " + d;
          Tensor x = integers(rnd, dt, shape, layout, -3, 3);
          Tensor src = integers(rnd, dt, shape, (layout + 1) % 3, -3, 3);
          long n = shape[d];
          check("indexSelect " + at, t -> t[0].indexSelect(d, t[1]), x, indices(rnd, n, 50));
          check("gather " + at, t -> t[0].gather(d, t[1]), x, indices(rnd, n, 20, 11));
          check("scatter " + at, t -> t[0].scatter(d, t[1], t[2]), x, permutations(rnd, shape, d), src);
          check("scatterAdd " + at, t -> t[0].scatterAdd(d, t[1], t[2]), x, indices(rnd, n, shape), src);
          Tensor source = integers(rnd, dt, d == 0 ? new long[] {60, 29} : new long[] {37, 60}, layout, -3, 3);
          check("indexAdd_ " + at, t -> {
            Tensor c = t[0].clone();
            c.indexAdd_(d, t[1], t[2], 2);
            return c;
          }, x, indices(rnd, n, 60), source);
          check("indexSelect out of range " + at, t -> t[0].indexSelect(d, t[1]), x, Tensor.fromArray(new long[] {0, n}));
          check("gather out of range " + at, t -> t[0].gather(d, t[1]), x, Tensor.full(new long[] {2, 2}, n));
        }
      }
    }
    assertMostAgreed();
  }

  @Test
  void advancedIndexingGetAndSetAgree() {
    expectRefusal("get out of range", IndexOutOfBoundsException.class);
    Random rnd = new Random(23);
    long[] shape = {6, 5, 40};
    for (DType dt : DTYPES) {
      for (int layout = 0; layout < 3; layout++) {
        String at = dt + " layout " + layout;
        Tensor x = integers(rnd, dt, shape, layout, -3, 3);
        Tensor rows = indices(rnd, 6, 9), cols = indices(rnd, 40, 9), mask = integers(rnd, DType.BOOL, new long[] {6, 5}, 0, -1, 1);
        check("get [i] " + at, t -> t[0].get(Index.of(t[1])), x, rows);
        check("get [:, :, j] " + at, t -> t[0].get(Index.all(), Index.all(), Index.of(t[1])), x, cols);
        check("get [i, :, j] " + at, t -> t[0].get(Index.of(t[1]), Index.all(), Index.of(t[2])), x, rows, cols);
        check("get [1:, i2d] " + at, t -> t[0].get(Index.slice(1L, null, null), Index.of(t[1])), x,
            indices(rnd, 5, 3, 4));
        check("get [mask] " + at, t -> t[0].get(Index.of(t[1])), x, mask);
        check("get out of range " + at, t -> t[0].get(Index.of(t[1])), x, Tensor.fromArray(new long[] {6}));
        Tensor value = integers(rnd, dt, new long[] {6, 5, 3}, 0, -3, 3);
        check("set [:, :, j] " + at, t -> {
          Tensor c = t[0].clone();
          c.set(new Index[] {Index.all(), Index.all(), Index.of(t[1])}, t[2]);
          return c;
        }, x, Tensor.fromArray(new long[] {39, 0, 17}), value);
        check("set [mask] = 1 " + at, t -> {
          Tensor c = t[0].clone();
          c.set(new Index[] {Index.of(t[1])}, 1L);
          return c;
        }, x, mask);
      }
    }
    assertMostAgreed();
  }

  @Test
  void masksNonzeroAndWhereAgree() {
    Random rnd = new Random(29);
    for (DType dt : DTYPES) {
      for (int layout = 0; layout < 3; layout++) {
        String at = dt + " layout " + layout;
        Tensor x = integers(rnd, dt, new long[] {33, 70}, layout, -3, 3);
        Tensor mask = integers(rnd, DType.BOOL, new long[] {70}, 0, -2, 1);
        check("maskedFill " + at, t -> t[0].maskedFill(t[1], 1), x, mask);
        check("maskedSelect " + at, t -> t[0].maskedSelect(t[1]), x, mask);
        check("nonzero " + at, t -> t[0].nonzero(), x);
        check("where " + at, t -> Tensor.where(t[1], t[0], t[2]), x, mask, integers(rnd, dt, new long[] {33, 1}, 0, -3, 3));
      }
    }
    Tensor big = integers(rnd, DType.INT32, new long[] {1 << 21}, 0, -20, 1);  // many blocks, few nonzeros
    check("nonzero 2M", t -> t[0].nonzero(), big);
    check("nonzero none", t -> t[0].nonzero(), Tensor.zeros(new long[] {5, 7}, DType.BOOL));
    assertMostAgreed();
  }
}
