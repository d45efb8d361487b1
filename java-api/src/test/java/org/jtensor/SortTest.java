package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.jtensor.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/** sort, argsort and topk against a plain-Java stable sort with PyTorch's NaN order, and their gradients. */
class SortTest {
  /** The positions a stable sort of one row gives, NaN largest. */
  private static Integer[] order(double[] row, boolean descending) {
    Integer[] idx = new Integer[row.length];
    for (int i = 0; i < idx.length; i++) idx[i] = i;
    Comparator<Integer> asc = (a, b) -> {
      boolean na = Double.isNaN(row[a]), nb = Double.isNaN(row[b]);
      if (na || nb) return na == nb ? 0 : na ? 1 : -1;
      return Double.compare(row[a], row[b]) == 0 ? 0 : row[a] < row[b] ? -1 : 1;
    };
    Arrays.sort(idx, descending ? (a, b) -> asc.compare(b, a) : asc);  // Arrays.sort on objects is stable
    return idx;
  }

  @Test
  void sortsEveryRowStablyWithNaNLargest() {
    Generator g = new Generator(5);
    for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT64, DType.INT32, DType.FLOAT16}) {
      for (boolean descending : new boolean[] {false, true}) {
        try (TensorScope s = TensorScope.open()) {
          Tensor x = Tensor.randint(-3, 4, new long[] {4, 7}, g).to(dt);  // many ties
          if (dt.isFloatingPoint()) x = x.maskedFill(Tensor.rand(new long[] {4, 7}, g).lt(0.15), Double.NaN);
          Tensor xt = x.t().contiguous().t();                                // a non-contiguous layout too
          for (Tensor in : List.of(x, xt)) {
            ValuesAndIndices r = in.sort(1, descending);
            double[] v = x.toDoubleArray(), got = r.values().toDoubleArray();
            long[] idx = r.indices().toLongArray();
            for (int row = 0; row < 4; row++) {
              double[] line = Arrays.copyOfRange(v, row * 7, row * 7 + 7);
              Integer[] want = order(line, descending);
              for (int i = 0; i < 7; i++) {
                assertEquals((long) want[i], idx[row * 7 + i], dt + " row " + row + " position " + i);
                assertEquals(line[want[i]], got[row * 7 + i], 0, dt + " value");
              }
            }
            assertArrayEquals(r.indices().toLongArray(), in.argsort(1, descending).toLongArray());
          }
        }
      }
    }
  }

  @Test
  void topkAndItsErrors() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new double[] {3, 1, 4, 1, 5, 9, 2, 6});
      ValuesAndIndices top = x.topk(3);
      assertArrayEquals(new double[] {9, 6, 5}, top.values().toDoubleArray(), 0);
      assertArrayEquals(new long[] {5, 7, 4}, top.indices().toLongArray());
      assertArrayEquals(new double[] {1, 1}, x.topk(2, 0, false).values().toDoubleArray(), 0);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.topk(9));
      assertEquals("topk(): selected index k out of range: k 9 for size 8", e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> x.sort(1, false));
    }
  }

  @Test
  void gradientsGoBackToWhereEachElementCameFrom() {
    try (TensorScope s = TensorScope.open()) {
      Tensor x = Tensor.fromArray(new double[] {0.3, -1.2, 2.5, 0.9, -0.4, 1.7}, 2, 3).requiresGrad_();
      GradCheck.check(in -> in.get(0).sort(1, true).values(), List.of(x));
      GradCheck.check(in -> in.get(0).topk(2, 1, true).values(), List.of(x));
    }
  }
}
