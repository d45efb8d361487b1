package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** index_select, gather, scatter(_add), index_add_, masked ops, nonzero, cat, stack on worked examples. */
class IndexOpsTest extends ScopedTest {
  private static Tensor longs(long[] v, long... shape) {
    return shape.length == 0 ? Tensor.fromArray(v) : Tensor.fromArray(v, shape);  // no shape: 1-D (an empty one is 0-dim)
  }

  @Test
  void indexSelectAndGather() {
    Tensor x = Tensor.arange(0, 12, 1, DType.FLOAT32).view(3, 4);
    assertArrayEquals(new float[] {8, 9, 10, 11, 0, 1, 2, 3}, x.indexSelect(0, longs(new long[] {2, 0})).toFloatArray());
    assertArrayEquals(new float[] {3, 1, 7, 5, 11, 9}, x.indexSelect(1, longs(new long[] {3, 1})).toFloatArray());
    Tensor g = x.gather(1, longs(new long[] {0, 0, 3, 2, 1, 1}, 3, 2));
    assertArrayEquals(new float[] {0, 0, 7, 6, 9, 9}, g.toFloatArray());
    assertArrayEquals(new float[] {8, 1, 6, 11}, x.gather(0, longs(new long[] {2, 0, 1, 2}, 1, 4)).toFloatArray());
    assertThrows(IndexOutOfBoundsException.class, () -> x.gather(1, longs(new long[] {4}, 1, 1)));
    assertThrows(IndexOutOfBoundsException.class, () -> x.indexSelect(0, longs(new long[] {3})));
    assertThrows(IllegalArgumentException.class, () -> x.gather(1, Tensor.zeros(1, 1)));
  }

  @Test
  void scatterScatterAddAndIndexAdd() {
    Tensor z = Tensor.zeros(3, 4);
    Tensor src = Tensor.arange(1, 7, 1, DType.FLOAT32).view(2, 3);
    Tensor s = z.scatter(0, longs(new long[] {0, 1, 2, 2, 0, 1}, 2, 3), src);
    assertArrayEquals(new float[] {1, 5, 0, 0, 0, 2, 6, 0, 4, 0, 3, 0}, s.toFloatArray());
    assertArrayEquals(new float[12], z.toFloatArray(), "scatter returns a copy");
    Tensor acc = Tensor.zeros(5).scatterAdd(0, longs(new long[] {1, 1, 3, 1}, 4), Tensor.ones(4));
    assertArrayEquals(new float[] {0, 3, 0, 1, 0}, acc.toFloatArray(), "repeated indices all add");
    Tensor base = Tensor.ones(new long[] {3, 2}, DType.INT64);
    base.indexAdd_(0, longs(new long[] {0, 2, 0}, 3), Tensor.arange(0, 6, 1, DType.INT64).view(3, 2), 2);
    assertArrayEquals(new long[] {9, 13, 1, 1, 5, 7}, base.toLongArray());
    Tensor inplace = Tensor.zeros(4);
    inplace.scatter_(0, longs(new long[] {3}, 1), Tensor.fromArray(new float[] {7}));
    assertEquals(7.0, inplace.getDouble(3));
  }

  @Test
  void maskedOpsAndNonzero() {
    Tensor x = Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3);
    Tensor m = Tensor.fromArray(new boolean[] {true, false, true});
    assertArrayEquals(new float[] {-1, 1, -1, -1, 4, -1}, x.maskedFill(m, -1).toFloatArray());
    assertArrayEquals(new float[] {0, 2, 3, 5}, x.maskedSelect(m).toFloatArray());
    Tensor b = Tensor.fromArray(new boolean[] {true, false});
    assertArrayEquals(new boolean[] {true, false}, b.maskedFill(Tensor.fromArray(new boolean[] {false, true}), 0).toBooleanArray());
    x.maskedFill_(x.gt(3L), 9);
    assertArrayEquals(new float[] {0, 1, 2, 3, 9, 9}, x.toFloatArray());
    assertArrayEquals(new long[] {0, 1, 0, 2, 1, 2}, Tensor.fromArray(new long[] {0, 5, 1, 0, 0, 2}, 2, 3).nonzero().toLongArray());
    assertArrayEquals(new long[] {0, 1}, Tensor.zeros(0).nonzero().shape());
    assertThrows(IllegalArgumentException.class, () -> x.maskedFill(Tensor.ones(3), 1));
  }

  @Test
  void catStackAndScans() {
    Tensor a = Tensor.arange(0, 4, 1, DType.INT32).view(2, 2), b = Tensor.fromArray(new float[] {9, 9}).view(1, 2);
    Tensor c = Tensor.cat(List.of(a, b), 0);
    assertEquals(DType.FLOAT32, c.dtype(), "cat promotes");
    assertArrayEquals(new float[] {0, 1, 2, 3, 9, 9}, c.toFloatArray());
    assertArrayEquals(new long[] {2, 4}, Tensor.cat(List.of(a, a.t()), 1).shape());
    assertArrayEquals(new long[] {2, 2}, Tensor.cat(List.of(a, Tensor.empty(0)), 0).shape(), "legacy empty skipped");
    Tensor s = Tensor.stack(List.of(a, a), 1);
    assertArrayEquals(new long[] {2, 2, 2}, s.shape());
    assertArrayEquals(new int[] {0, 1, 0, 1, 2, 3, 2, 3}, s.toIntArray());
    assertThrows(IllegalArgumentException.class, () -> Tensor.cat(List.of(a, Tensor.zeros(3, 3)), 0));
    assertThrows(IllegalArgumentException.class, () -> Tensor.stack(List.of(a, b), 0));
    assertArrayEquals(new long[] {1, 3, 6, 10}, Tensor.arange(1, 5).cumsum(0).toLongArray());
    assertArrayEquals(new long[] {1, 2, 6, 24}, Tensor.arange(1, 5).cumprod(0).toLongArray());
    assertArrayEquals(new float[] {0, 1, 2, 3, 5, 7}, Tensor.arange(0, 6, 1, DType.FLOAT32).view(2, 3).cumsum(0).toFloatArray());
    assertArrayEquals(new float[] {0, 1, 2, 4, 6, 9}, Tensor.arange(0, 6, 1, DType.FLOAT32).view(3, 2).t().cumsum(1).t().toFloatArray());
  }
}
