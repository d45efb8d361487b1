package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** View ops the libtorch conformance file does not reach: tensor_split, list forms, *_as, base(). */
class ViewApiTest extends ScopedTest {

  private static long[][] shapes(List<Tensor> ts) {
    long[][] out = new long[ts.size()][];
    for (int i = 0; i < out.length; i++) out[i] = ts.get(i).shape();
    return out;
  }

  @Test
  void tensorSplitBySectionsAndIndices() {
    Tensor x = Tensor.arange(7);
    assertArrayEquals(new long[][] {{3}, {2}, {2}}, shapes(x.tensorSplit(3, 0)));
    List<Tensor> at = x.tensorSplit(new long[] {1, 5, -1}, 0);
    assertArrayEquals(new long[][] {{1}, {4}, {1}, {1}}, shapes(at));
    assertArrayEquals(new long[] {1, 2, 3, 4}, at.get(1).toLongArray());
    assertArrayEquals(new long[][] {{0}, {0}}, shapes(Tensor.arange(0).chunk(2, 0)));
    assertArrayEquals(new long[][] {{2}, {0}, {5}}, shapes(x.split(new long[] {2, 0, 5}, 0)));
    assertThrows(IllegalArgumentException.class, () -> x.tensorSplit(0, 0));
    assertThrows(IllegalArgumentException.class, () -> x.split(new long[] {2, 2}, 0));
  }

  @Test
  void unflattenMovedimListsAndAsForms() {
    Tensor x = Tensor.arange(24).view(6, 4);
    assertArrayEquals(new long[] {2, 3, 4}, x.unflatten(0, 2, -1).shape());
    assertThrows(IllegalArgumentException.class, () -> x.unflatten(0, 4, -1));
    Tensor y = Tensor.arange(24).view(2, 3, 4);
    Tensor m = y.movedim(new int[] {0, 1}, new int[] {2, 0});
    assertArrayEquals(new long[] {3, 4, 2}, m.shape());
    assertEquals(y.getLong(1, 2, 3), m.getLong(2, 3, 1));
    assertThrows(IllegalArgumentException.class, () -> y.movedim(new int[] {0, 0}, new int[] {1, 2}));
    assertArrayEquals(new long[] {4, 6}, x.viewAs(Tensor.empty(4, 6)).shape());
    assertArrayEquals(new long[] {24}, x.t().reshapeAs(Tensor.empty(24)).shape());
    assertArrayEquals(new long[] {0, 1}, Tensor.zeros(1, 4).expandAs(Tensor.empty(3, 4)).stride());
  }

  @Test
  void baseIsTheRootAndSqueezeForms() {
    Tensor x = Tensor.zeros(2, 1, 3, 1);
    Tensor v = x.squeeze(1).transpose(0, 2);
    assertArrayEquals(new long[] {1, 3, 2}, v.shape());
    try (Tensor root = v.base()) {
      assertArrayEquals(x.shape(), root.shape());
      assertEquals(x.dataPtr(), root.dataPtr());
    }
    assertArrayEquals(new long[] {2, 3}, x.squeeze().shape());
    assertArrayEquals(new long[] {2, 3}, x.squeeze(1, 3).shape());
    assertArrayEquals(new long[] {2, 1, 3, 1}, x.squeeze(0).shape(), "a dim that is not size 1 stays");
    assertTrue(x.swapaxes(0, 2).isView());
    assertArrayEquals(new long[] {3, 1, 2, 1}, x.swapdims(0, -2).shape());
    Tensor d = Tensor.arange(9).view(3, 3).diagonal();
    assertArrayEquals(new long[] {0, 4, 8}, d.toLongArray());
    Tensor u = Tensor.arange(7).unfold(0, 3, 2);
    assertArrayEquals(new long[] {0, 1, 2, 2, 3, 4, 4, 5, 6}, u.toLongArray());
  }
}
